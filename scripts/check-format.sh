#!/usr/bin/env bash
# Fails when a C++ file differs from clang-format's output (.clang-format at the root), naming each
# such file. The files go to clang-format in batches on every core: one process per file spent most
# of its time starting processes (a minute on a busy 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tracked files and new ones not yet added (a file written and not yet committed is checked too);
# ignored ones (build folders, node_modules) and deleted ones left out.
report="$(git ls-files -z --cached --others --exclude-standard '*.cpp' '*.hpp' '*.c' '*.h' |
  while IFS= read -r -d '' f; do [[ -f "$f" ]] && printf '%s\0' "$f"; done |
  xargs -0 -r -P "$(nproc)" -n 40 clang-format --dry-run --Werror 2>&1 >/dev/null || true)"
# Only clang-format's own "file:line:col: error:" lines name a file; the source lines it quotes after
# them can look alike (a test that expects "book.toml:3:1: error:"), so a name must end in a C++ suffix.
bad="$(grep -oE '^[^: ]+\.(cpp|hpp|c|h):[0-9]+:[0-9]+: error:' <<<"$report" | cut -d: -f1 | sort -u || true)"
if [[ -n "$bad" ]]; then
  sed 's/^/needs clang-format: /' <<<"$bad"
  exit 1
fi
if [[ -n "$report" ]]; then  # clang-format failed otherwise (a missing file, a bad .clang-format)
  echo "$report"
  exit 1
fi
