#!/usr/bin/env bash
# Is save-to-page under `site --serve` independent of the book's size? Runs reload-latency.mjs on
# this repository's book (1×) and on the same book generated at SCALE× (bench/scale/generate.py),
# in interleaved rounds (a burst of load on the shared machine hits both), and prints each round's
# median, the median over rounds for each book, and their ratio against the goal of issue 15
# (within ±20%). Not a test: it prints a table.
# Usage: bench/site/reload-scale.sh [BOOKBUILD] [SCALE]   (ROUNDS=4 rounds of EDITS=20 edits each)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build/builder/bookbuild}")"
scale="${2:-100}"
rounds="${ROUNDS:-4}"
edits="${EDITS:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/bench/scale/generate.py" "$scale" "$work/book" >/dev/null

# The median of the numbers on stdin.
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

one="" big=""
for ((r = 1; r <= rounds; r++)); do
  for book in "$here" "$work/book"; do
    line="$(node "$here/bench/site/reload-latency.mjs" "$bookbuild" "$book" en/preface.html \
      book-en/introduction.md "$edits" | tail -1)"
    ms="$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<<"$line")"
    if [[ "$book" == "$here" ]]; then one+="$ms"$'\n'; label="1×"; else big+="$ms"$'\n'; label="${scale}×"; fi
    printf 'round %d, %-5s %s\n' "$r" "$label" "${line#save → change in page over }"
  done
done
m1="$(printf '%s' "$one" | median)"
mb="$(printf '%s' "$big" | median)"
ratio="$(awk -v a="$mb" -v b="$m1" 'BEGIN {printf "%.2f", a / b}')"
verdict="$(awk -v r="$ratio" 'BEGIN {print (r <= 1.2 && r >= 0.8) ? "met" : "NOT met"}')"
echo "median over $rounds rounds: 1× ${m1} ms, ${scale}× ${mb} ms; ratio ${ratio} (goal: within ±20%) ${verdict}"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end ($(date -u '+%Y-%m-%d %H:%M UTC'))"
