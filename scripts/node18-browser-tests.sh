#!/usr/bin/env bash
# Runs the browser tests with Debian 12's own Node.js 18 on a machine whose node is another version
# (CI and developer machines may have NodeSource's 20), without replacing the system's node: the
# Debian packages are unpacked into a folder and run from there. Needs root (apt-get download, and a
# private mount namespace, see below), Debian's chromium, a built tree and `npm ci` in tests/browser.
#
# Usage: scripts/node18-browser-tests.sh [BUILD_DIR] [CTEST_REGEX]   (scripts/test.sh runs it)
#   BUILD_DIR    a configured and built tree (default: build)
#   CTEST_REGEX  the tests to run (default: 'browser\.(site|init)'; 'browser\.' adds Lighthouse)
# NODE18_DIR chooses where the packages are unpacked (default: /tmp/node18).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
regex="${2:-browser\.(site|init)}"
dir="${NODE18_DIR:-/tmp/node18}"

# Exit 77 (skipped) where it cannot run: no mount namespace (a container without CAP_SYS_ADMIN).
if ! unshare --mount true 2>/dev/null; then
  echo "skip: no private mount namespace here (unshare --mount needs root and CAP_SYS_ADMIN)" >&2
  exit 77
fi

# Debian 12's nodejs 18 (bookworm or bookworm-security) and what its libnode needs that a machine
# with another node lacks: libnode108, and the three JavaScript packages Debian's node loads its
# acorn, cjs-module-lexer and undici builtins from.
version="$(apt-cache madison nodejs | awk -F'|' '$2 ~ /^ *18\./ {gsub(/ /, "", $2); print $2; exit}')"
if [[ -z "$version" ]]; then
  echo "skip: no nodejs 18 in the apt sources (Debian 12 bookworm has 18.20.4)" >&2
  exit 77
fi
if [[ ! -x "$dir/usr/bin/node" ]] || ! grep -qx "$version" "$dir/.version" 2>/dev/null; then
  rm -rf "$dir" && mkdir -p "$dir/debs" && chmod a+rwx "$dir/debs"  # apt downloads as user _apt
  # No network or no such package: a machine that cannot fetch them skips rather than fails.
  if ! (cd "$dir/debs" && apt-get download -q "nodejs=$version" "libnode108=$version" node-acorn \
    node-cjs-module-lexer node-undici); then
    echo "skip: could not download Debian's nodejs $version packages" >&2
    rm -rf "$dir"
    exit 77
  fi
  for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir"; done
  echo "$version" >"$dir/.version"
fi

# libnode looks for those builtins at the absolute path /usr/share/nodejs/…: the wrapper gives node
# (and whatever it starts: chromium, bookbuild) a private mount namespace in which the unpacked
# folder is mounted over /usr/share/nodejs. Nothing changes outside that namespace.
mkdir -p /usr/share/nodejs  # the mount point; an empty folder when no node-* package is installed
cat >"$dir/node" <<EOF
#!/bin/sh
# Debian's node $version from $dir (written by scripts/node18-browser-tests.sh).
exec unshare --mount --propagation private sh -c 'mount --bind "\$0/usr/share/nodejs" /usr/share/nodejs &&
  LD_LIBRARY_PATH="\$0/usr/lib/x86_64-linux-gnu" exec "\$0/usr/bin/node" "\$@"' "$dir" "\$@"
EOF
chmod +x "$dir/node"
echo "== $("$dir/node" --version) from $dir"

# The tests run through CTest as usual, with NODE_EXECUTABLE pointed at the wrapper for this run and
# set back afterwards (a reconfigure; nothing is rebuilt).
cache="$build/CMakeCache.txt"
previous="$(sed -n 's/^NODE_EXECUTABLE:[A-Z]*=//p' "$cache")"
restore() {
  if [[ -n "$previous" ]]; then
    cmake -S . -B "$build" -DNODE_EXECUTABLE="$previous" >/dev/null
  else
    cmake -S . -B "$build" -UNODE_EXECUTABLE >/dev/null
  fi
}
trap restore EXIT
cmake -S . -B "$build" -DNODE_EXECUTABLE="$dir/node" | grep 'Browser tests run with'
ctest --test-dir "$build" -R "$regex" --output-on-failure
