#!/usr/bin/env bash
# Builds every edition's EPUB of each given book and runs Ace by DAISY (pinned in package-lock.json,
# with Debian's chromium) on it: 0 violations are required, and the accessibility metadata must be
# there (Ace reports its absence as violations). Exits 77 (CTest: skipped) when chromium, node or
# node_modules (`npm ci` in tests/ace, done by scripts/test.sh) or a book folder is absent.
# Usage: ace.sh BOOKBUILD BOOK[,REPOSITORY-URL]...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bookbuild="$1"
shift
chromium="${PUPPETEER_EXECUTABLE_PATH:-/usr/bin/chromium}"
[[ -x "$chromium" ]] || { echo "SKIP: no chromium at $chromium"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 77; }
ace="$here/node_modules/@daisy/ace-cli/bin/ace.js"
[[ -f "$ace" ]] || { echo "SKIP: Ace is not installed (cd tests/ace && PUPPETEER_SKIP_DOWNLOAD=1 npm ci)"; exit 77; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failed=0
for arg in "$@"; do
  book="${arg%%,*}"
  repository=""
  [[ "$arg" == *,* ]] && repository="${arg#*,}"
  [[ -d "$book" ]] || { echo "SKIP: book folder $book is absent"; exit 77; }
  dir="$out/$(basename "$book")"
  args=(--quiet --book "$book" --out "$dir")
  [[ -n "$repository" ]] && args+=(--repository "$repository")
  "$bookbuild" "${args[@]}" epub --all
  for f in "$dir"/epub/*.epub; do
    report="$out/ace-$(basename "$f" .epub)"
    # Ace drives a headless chromium; on a loaded machine (CI runs two tests at once) a run can die
    # without writing its report. That is not a verdict on the EPUB: try again, up to three times, and
    # show Ace's own output when there is still no report.
    for try in 1 2 3; do
      rm -rf "$report"
      PUPPETEER_EXECUTABLE_PATH="$chromium" node "$ace" --silent --force --outdir "$report" "$f" \
        >"$report.log" 2>&1 || true
      [[ -f "$report/report.json" ]] && break
      echo "$(basename "$f"): Ace wrote no report (try $try of 3); its output:"
      tail -n 20 "$report.log" | sed 's/^/  /'
    done
    if ! node "$here/violations.mjs" "$report/report.json" "$(basename "$f")"; then failed=1; fi
  done
done
exit $failed
