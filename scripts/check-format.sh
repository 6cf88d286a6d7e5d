#!/usr/bin/env bash
# Fails when a C++ file differs from clang-format's output (.clang-format at the root).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r f; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then echo "needs clang-format: $f"; bad=1; fi
done < <(git ls-files '*.cpp' '*.hpp' '*.c' '*.h')
exit $bad
