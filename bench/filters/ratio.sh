#!/usr/bin/env bash
# What the book's Lua filters cost: builds this repository's book's site with its [[filter]] tables
# and without them (the same copy, book.toml edited), ROUNDS times each, alternating, cold (no
# <out>/.cache) and warm (the caches of the round before), and prints the median CPU time (user +
# system of every thread: perf's task-clock, to the microsecond) of each and the ratio of the
# difference to the build without filters. With CALLGRIND=1 it counts instructions instead (valgrind,
# slow; one round unless ROUNDS says more). Run records are off, so that every run builds. Not a
# test: it prints a table (docs/benchmarks.md, "Book filters").
# Usage: bench/filters/ratio.sh [BOOKBUILD]   (ROUNDS=9, CALLGRIND=0)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build/builder/bookbuild}")"
callgrind="${CALLGRIND:-0}"
rounds="${ROUNDS:-$([[ "$callgrind" == 1 ]] && echo 1 || echo 9)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for variant in with without; do
  mkdir -p "$work/$variant"
  tar -C "$here" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - \
    book.toml manuscripts book-en book-zh-tw book-ru calculations filters templates | tar -C "$work/$variant" -xf -
done
# Without: book.toml up to its first [[filter]] table.
sed -i '/^\[\[filter\]\]/,$d' "$work/without/book.toml"

# CPU seconds of one site build of book $1 into $2 (millions of instructions under callgrind).
# /usr/bin/time and bash's `times` count in 10 ms steps, about what the filters cost here.
cpu() {
  if [[ "$callgrind" == 1 ]]; then
    BOOKBUILD_RUN_RECORD=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bookbuild" --book "$1" \
      --out "$2" --quiet site 2>"$work/err" >/dev/null || { cat "$work/err" >&2; exit 1; }
    awk '/Collected :/ { printf "%.1f\n", $4 / 1e6 }' "$work/err"
    return
  fi
  BOOKBUILD_RUN_RECORD=0 perf stat -x, -e task-clock -o "$work/time" "$bookbuild" --book "$1" --out "$2" \
    --quiet site >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$work/time"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for kind in cold warm; do
  : >"$work/with.$kind" && : >"$work/without.$kind"
  for ((i = 0; i < rounds; i++)); do
    for variant in with without; do
      [[ "$kind" == cold ]] && rm -rf "$work/out-$variant"
      cpu "$work/$variant" "$work/out-$variant" >>"$work/$variant.$kind"
    done
  done
  with="$(median <"$work/with.$kind")"
  without="$(median <"$work/without.$kind")"
  awk -v k="$kind" -v a="$with" -v b="$without" \
    -v unit="$([[ "$callgrind" == 1 ]] && echo 'M instructions' || echo 's CPU')" \
    'BEGIN { printf "%-5s site build: with filters %.4g, without %.4g %s; filters cost %.1f%% of the build\n", k, a, b, unit, 100 * (a - b) / b }'
done
