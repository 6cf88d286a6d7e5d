#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to reading the book: installs the packages bookbuild
# needs and those the book itself uses (the fonts its charts are drawn in), builds bookbuild, builds
# this repository's book and serves it on http://127.0.0.1:8000, with no warning.
# Each step shows one line: apt's output goes to build-release/install.log and the compiler's to
# build-release/build.log, whose end is printed when the step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build-release
scripts/install-deps.sh --log build-release/install.log
log=build-release/build.log
echo "building bookbuild (a few minutes the first time; the full log is $log)"
BUILD_DIR=build-release scripts/build.sh -DBOOKBUILD_TESTS=OFF >"$log" 2>&1 &
builder=$!
shown=""
while kill -0 "$builder" 2>/dev/null; do
  # The build tool's last "[ NN%]" line.
  percent="$(grep -oE '^\[ *[0-9]+%\]' "$log" | tail -1 | tr -dc '0-9' || true)"
  if [[ -n "$percent" && "$percent" != "$shown" ]]; then
    if [[ -t 1 ]]; then printf '\r  %3s%%' "$percent"; elif ((percent / 10 != ${shown:-0} / 10)); then echo "  $percent%"; fi
    shown="$percent"
  fi
  sleep 1
done
if ! wait "$builder"; then
  [[ -t 1 ]] && echo
  cat "$log"
  echo "the build failed; the output above is also in $log"
  exit 1
fi
[[ -t 1 ]] && printf '\r  100%%\n'
exec build-release/builder/bookbuild --book . site --serve "$@"
