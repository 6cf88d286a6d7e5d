#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, the tree moved elsewhere, then a book built with it from
# another folder: the moved tree's own data (a marker planted in its stylesheet reaches the site) and
# modules (the dynamic loader's log names them) are used, not the build folder's or the source tree's.
# Usage: install_test.sh BUILD_DIR FIXTURE_BOOK
set -euo pipefail
build="$1" fixture="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
mv "$tmp/prefix" "$tmp/moved"
tree="$tmp/moved"
fail=0
for f in bin/bookbuild share/bookbuild/templates/page.html share/bookbuild/website/book.css \
         share/bookbuild/languages/en.toml share/bookbuild/templates/workflow/book.yml \
         lib/bookbuild/bookbuild_zip.so lib/bookbuild/bookbuild_pdf.so lib/bookbuild/bookbuild_git.so \
         share/man/man1/bookbuild.1 \
         share/bash-completion/completions/bookbuild share/zsh/vendor-completions/_bookbuild; do
  [[ -f "$tree/$f" ]] || { echo "not installed: $f"; fail=1; }
done
echo "/* installed-tree-marker */" >> "$tree/share/bookbuild/website/book.css"
cp -r "$fixture" "$tmp/book"
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
if ! env -u BOOKBUILD_DATA_DIR LD_DEBUG=files BOOKBUILD_RUN_RECORD=0 "$tree/bin/bookbuild" --book ../book --out ../out \
    build --no-pdf 2> "$tmp/err"; then
  grep -v '^ *[0-9]*:' "$tmp/err"
  echo "the installed bookbuild failed"
  exit 1
fi
grep -q 'installed-tree-marker' "$tmp/out/site/assets/book.css" || { echo "the site's assets are not the installed ones"; fail=1; }
grep -q "file=$tree/lib/bookbuild/bookbuild_zip.so" "$tmp/err" || { echo "the zip module was not loaded from the installed tree"; fail=1; }
[[ -f "$tmp/out/epub/Small-Book-EN.epub" && -f "$tmp/out/build.json" ]] || { echo "outputs missing"; fail=1; }
"$tree/bin/bookbuild" --version | grep -q '^bookbuild ' || { echo "--version"; fail=1; }
exit $fail
