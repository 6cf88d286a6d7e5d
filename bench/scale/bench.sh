#!/usr/bin/env bash
# How bookbuild's cost grows with the size of the book: generates this repository's book at each
# scale (bench/scale/generate.py: N renumbered copies of every chapter, all editions) and measures
# `check`, `site`, `epub --all` and `latex` (warm: a second run into the same output folder) — wall
# time, CPU time, peak RSS, and CPU seconds per MB of Markdown — then the departure of each job's
# cost per MB from the first scale's. Not a test: it prints a table.
# Usage: bench/scale/bench.sh [BOOKBUILD] [SCALES...]   (default scales: 1 10 100; RUNS=3)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build-release/builder/bookbuild}")"
shift || true
scales=("${@:-1 10 100}")
read -r -a scales <<<"${scales[*]}"
runs="${RUNS:-3}"
# What is measured is how a build's cost grows with the book: a warm run here builds (the caches of
# <out>/.cache are used) instead of replaying the last run's record (docs/pipeline.md, "Run
# records"), which would measure a few hundred stat calls. RECORDS=1 measures the replays instead.
[[ "${RECORDS:-0}" == 1 ]] || export BOOKBUILD_RUN_RECORD=0
source "$here/bench/lib.sh"
[[ -x "$bookbuild" ]] || { echo "no bookbuild at $bookbuild (scripts/build.sh first)"; exit 1; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
jobs=("check" "site" "epub --all" "latex")
declare -A per_mb

printf '| scale | MB of Markdown | job | wall s | CPU s | peak MB | CPU s per MB | per MB vs %s× |\n' "${scales[0]}"
printf '| --- | --- | --- | --- | --- | --- | --- | --- |\n'
for n in "${scales[@]}"; do
  book="$out/book-$n"
  python3 "$here/bench/scale/generate.py" "$n" "$book" >/dev/null || fail "generating the $n× book"
  # The chapters' Markdown only: the copied calculations folder holds Markdown notes of its own.
  mb="$(find "$book" -path "$book/calculations" -prune -o -name '*.md' -printf '%s\n' |
    awk '{ s += $1 } END { printf "%.2f", s / 1e6 }')"
  for job in "${jobs[@]}"; do
    # One run to fill the output folder and the figure cache, then RUNS warm runs.
    # Any failed run stops the benchmark with its errors: a time of a failed build is no figure.
    measure "$bookbuild" -q --book "$book" --out "$out/out-$n" $job >/dev/null || fail "$job at $n×"
    samples=""
    for ((r = 0; r < runs; r++)); do
      sample="$(measure "$bookbuild" -q --book "$book" --out "$out/out-$n" $job)" || fail "$job at $n×"
      samples+="$sample"$'\n'
    done
    w="$(printf '%s' "$samples" | awk 'NF { print $1 }' | median)"
    k="$(printf '%s' "$samples" | awk 'NF { print $2 }' | median)"
    c="$(printf '%s' "$samples" | awk 'NF { print $3 }' | median)"
    cpm="$(awk -v c="$c" -v mb="$mb" 'BEGIN { printf "%.3f", c / mb }')"
    [[ -n "${per_mb[$job]:-}" ]] || per_mb[$job]="$cpm"
    awk -v n="$n" -v mb="$mb" -v job="$job" -v w="$w" -v c="$c" -v k="$k" -v cpm="$cpm" -v base="${per_mb[$job]}" 'BEGIN {
      printf "| %s× | %.2f | %s | %.3f | %.2f | %.0f | %.3f | %.2f× |\n", n, mb, job, w, c, k / 1024, cpm,
             (base > 0 ? cpm / base : 0) }'
  done
  rm -rf "$book" "$out/out-$n"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end ($(date -u '+%Y-%m-%d %H:%M UTC')); $(nproc) cores"
