#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a passing test suite: installs the packages (with the
# test tools), builds with warnings as errors, runs every test, then runs the suite again under
# AddressSanitizer and UndefinedBehaviorSanitizer. CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test

# Browser tests: playwright-core from the lock file (Debian's chromium is the browser; no download).
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
# Ace by DAISY for the EPUB accessibility tests (tests/ace), likewise with Debian's chromium.
(cd tests/ace && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)

jobs="$(nproc)"
echo "== build (warnings are errors)"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOKBUILD_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
echo "== tests"
ctest --test-dir build-test --output-on-failure -j"$jobs"
# The browser tests again with Debian 12's own Node.js 18 (docs/testing.md), about a minute.
if [[ "${BOOKBUILD_SKIP_NODE18:-0}" != 1 ]]; then
  echo "== browser tests with Debian's Node.js 18"
  scripts/node18-browser-tests.sh build-test || [[ $? == 77 ]]
fi

if [[ "${BOOKBUILD_SKIP_SANITIZE:-0}" != 1 ]]; then
  echo "== tests under ASan + UBSan"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DBOOKBUILD_WERROR=ON -DBOOKBUILD_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi

# The harnesses, built with clang + libFuzzer + ASan/UBSan in their own folder; BOOKBUILD_SKIP_FUZZ=1
# skips them. `scripts/fuzz.sh SECONDS` runs them for longer by hand (docs/security.md).
if [[ "${BOOKBUILD_SKIP_FUZZ:-0}" != 1 ]]; then
  # A few seconds per harness (docs/security.md): replays the regressions and catches shallow crashes.
  echo "== fuzzing, ${BOOKBUILD_FUZZ_SECONDS:-5} s per harness"
  FUZZ_JOBS="$jobs" scripts/fuzz.sh "${BOOKBUILD_FUZZ_SECONDS:-5}"
fi

echo "== format"
scripts/check-format.sh
echo "all tests passed"
