#!/usr/bin/env bash
# `cpack -G DEB` on the build folder: a .deb holding the installed tree under /usr, whose Depends
# (from dpkg-shlibdeps) name the Debian libraries the executable and its modules link.
# Usage: deb_test.sh BUILD_DIR. Exits 77 without dpkg-shlibdeps (Debian: dpkg-dev).
set -euo pipefail
build="$1"
command -v dpkg-shlibdeps >/dev/null || { echo "dpkg-shlibdeps not installed (dpkg-dev): skipped"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp" >/dev/null)
deb="$(ls "$tmp"/bookbuild_*_amd64.deb)"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
fail=0
# ICU, cmark-gfm and Lua are linked into the executable from their static archives
# (cmake/Dependencies.cmake), so no package of theirs is needed at run time; libgit2 is the git module's.
for lib in libc6 libstdc++6 libpoppler-cpp libzip libxml2 librsvg2 libsource-highlight libgit2; do
  [[ "$depends" == *"$lib"* ]] || { echo "Depends lacks $lib"; fail=1; }
done
contents="$(dpkg-deb -c "$deb")"
for f in ./usr/bin/bookbuild ./usr/share/bookbuild/templates/page.html ./usr/lib/bookbuild/bookbuild_zip.so \
         ./usr/share/man/man1/bookbuild.1; do
  [[ "$contents" == *" $f"* ]] || { echo "the package lacks $f"; fail=1; }
done
exit $fail
