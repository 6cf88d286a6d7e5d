#!/usr/bin/env bash
# The real book's layout with no book.toml (../shared/corpus): `bookbuild build` writes the site and an
# EPUB (and, with XeLaTeX, a PDF) per edition found, under the names the real book's releases use.
# Usage: real_layout_test.sh BOOKBUILD CORPUS_DIR. Exits 77 without the corpus.
set -euo pipefail
bookbuild="$1" corpus="$2"
[[ -d "$corpus/zh-tw" && -d "$corpus/upstream" ]] || { echo "no corpus at $corpus: skipped"; exit 77; }
# The corpus's scenarios/book.json is a Git LFS pointer, as in a clone without LFS: a warning, and
# the book builds (docs/numbers.md).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { [[ -f "$1" ]] || { echo "missing: $1"; fail=1; }; }
BOOKBUILD_RUN_RECORD=0 "$bookbuild" -q --book "$corpus/zh-tw" --out "$tmp/zh-tw" build --no-pdf 2>>"$tmp/log" || { tail -20 "$tmp/log"; exit 1; }
expect "$tmp/zh-tw/epub/AI-Infra-Book-ZH-TW.epub"
expect "$tmp/zh-tw/site/index.html"
expect "$tmp/zh-tw/site/downloads/AI-Infra-Book-ZH-TW.epub"
BOOKBUILD_RUN_RECORD=0 "$bookbuild" -q --book "$corpus/upstream" --out "$tmp/upstream" build --no-pdf 2>>"$tmp/log" || { tail -20 "$tmp/log"; exit 1; }
expect "$tmp/upstream/epub/AI-Infra-Book.epub"
expect "$tmp/upstream/epub/AI-Infra-Book-EN.epub"
expect "$tmp/upstream/site/en/index.html"
grep -q 'downloads/AI-Infra-Book-EN.epub' "$tmp/upstream/site/en/index.html" || { echo "no download link"; fail=1; }
exit $fail
