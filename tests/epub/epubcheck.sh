#!/usr/bin/env bash
# Builds every edition's EPUB of each given book and runs epubcheck on it: 0 fatals, 0 errors and
# 0 warnings are required. Exits 77 (CTest: skipped) when epubcheck or a book folder is absent.
# Usage: epubcheck.sh BOOKBUILD BOOK[,REPOSITORY-URL]...
set -euo pipefail
bookbuild="$1"
shift

# Debian installs epubcheck as an executable jar, which runs only where binfmt knows jars.
if ! command -v epubcheck >/dev/null 2>&1; then
  echo "SKIP: epubcheck is not installed (scripts/install-deps.sh --test)"
  exit 77
fi
jar="$(readlink -f "$(command -v epubcheck)")"
if [[ "$jar" == *.jar ]]; then
  command -v java >/dev/null 2>&1 || { echo "SKIP: java is not installed"; exit 77; }
  epubcheck=(java -jar "$jar")
else
  epubcheck=(epubcheck)
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failed=0
for arg in "$@"; do
  book="${arg%%,*}"
  repository=""
  [[ "$arg" == *,* ]] && repository="${arg#*,}"
  if [[ ! -d "$book" ]]; then
    echo "SKIP: book folder $book is absent"
    exit 77
  fi
  dir="$out/$(basename "$book")"
  args=(--book "$book" --out "$dir")
  [[ -n "$repository" ]] && args+=(--repository "$repository")
  args+=(epub --all)
  "$bookbuild" "${args[@]}"
  "$bookbuild" --out "$dir" check epub
  for f in "$dir"/epub/*.epub; do
    log="$("${epubcheck[@]}" "$f" 2>&1 || true)"
    summary="$(grep -E '^Messages:' <<<"$log" || true)"
    echo "$(basename "$f"): ${summary:-no summary}"
    if [[ "$summary" != "Messages: 0 fatals / 0 errors / 0 warnings"* ]]; then
      echo "$log"
      failed=1
    fi
  done
done
exit $failed
