#!/usr/bin/env bash
# Issue 49's comparison: every job (site, each edition's EPUB and LaTeX) against its peer (MkDocs
# Material, Pandoc), on the shared samples of the real book and on a real-size edition, in one run:
# bench/all.sh on each input in turn (interleaved rounds, medians), run records off so that every
# bookbuild run builds (its caches of <out>/.cache are used, as in a real rebuild). The inputs:
#   upstream   ../shared/corpus/upstream (zh and en chapters 4-5)
#   zh-tw      ../shared/corpus/zh-tw (the Traditional Chinese preface and chapters 1-6)
#   real-size  the zh-tw sample made a whole edition (bench/edition/generate.py: chapters 7-12 are
#              renumbered copies of 1-6 with figures of their own: 13 files, 0.75 M characters)
# Prints, per input, all.sh's tables (wall/CPU/peak RSS of each side, ratios, the goals' verdict).
# Not a test. A failed run of either side stops it with the errors and no figure.
# Usage: bench/peers.sh [BOOKBUILD]   (RUNS, COLD, ONLY as for bench/all.sh; INPUTS='upstream zh-tw
#        real-size' by default)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bookbuild="$(realpath "${1:-$here/build-release/builder/bookbuild}")"
corpus="$(realpath "$here/../shared/corpus")"
source "$here/bench/lib.sh"
[[ -d "$corpus" ]] || fail "no shared corpus at $here/../shared/corpus"
export BOOKBUILD_RUN_RECORD=0
export COLD="${COLD:-0}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for input in ${INPUTS:-upstream zh-tw real-size}; do
  case "$input" in
    upstream | zh-tw) book="$corpus/$input" ;;
    real-size)
      book="$work/real-size"
      python3 "$here/bench/edition/generate.py" "$book" "$corpus/zh-tw" || fail "generating the real-size edition"
      ;;
    *) fail "unknown input $input (upstream, zh-tw, real-size)" ;;
  esac
  echo
  echo "## $input"
  "$here/bench/all.sh" "$bookbuild" "$book" || fail "bench/all.sh on $input"
done
