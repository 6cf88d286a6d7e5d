#!/usr/bin/env bash
# Builds the corpus EPUB of each edition with bookbuild (figure cache warm) and with
# `pandoc --to=epub3` on the same chapter files, in the same run, and prints the ratios of wall time
# and peak memory (pandoc / bookbuild). Each measurement is the median of RUNS runs (default 5).
# BOOK must have the real book's folder layout (manuscripts/, book-en/, ...), as the corpus has.
# Usage: bench/epub/bench.sh [BOOKBUILD] [BOOK]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="${1:-$here/build/builder/bookbuild}"
book="${2:-$here/../shared/corpus/upstream}"
runs="${RUNS:-5}"
# Links into the corpus's repository are made absolute with the upstream repository's URL.
repository="${REPOSITORY:-https://github.com/bojieli/ai-infra-book}"
[[ -x "$bookbuild" ]] || { echo "no bookbuild at $bookbuild (build first)"; exit 1; }
[[ -d "$book" ]] || { echo "no book at $book"; exit 1; }
command -v pandoc >/dev/null || { echo "pandoc is not installed (scripts/install-deps.sh --test)"; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install time)"; exit 1; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# measure CMD...: prints "seconds kilobytes cpu-seconds": wall time from the clock in nanoseconds
# (/usr/bin/time rounds it to 10 ms), peak resident memory and user+system CPU time from /usr/bin/time.
# CPU time is printed too because wall time on a shared machine depends on the others' load.
measure() {
  local start end
  start="$(date +%s%N)"
  /usr/bin/time -f '%M %U %S' -o "$out/rss" "$@" >/dev/null 2>"$out/err" || { cat "$out/err"; exit 1; }
  end="$(date +%s%N)"
  read -r kb user sys < <(tail -1 "$out/rss")
  awk -v ns="$((end - start))" -v kb="$kb" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
    'BEGIN { printf "%.4f %d %.2f\n", ns / 1e9, kb, cpu }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The editions and their chapter files, as bookbuild sees them.
mapfile -t editions < <("$bookbuild" --book "$book" check 2>/dev/null | awk '/^[a-z-]+ \(/ { print $1 }')

echo "warming the figure cache"
"$bookbuild" -q --book "$book" --out "$out/bb" epub --all --repository "$repository"

printf '%-8s %12s %12s %8s   %12s %12s %8s   %8s %8s %8s\n' edition "bookbuild s" "pandoc s" ratio \
  "bookbuild MB" "pandoc MB" ratio "bb cpu" "pd cpu" ratio
total_bb=0 total_pd=0
for e in "${editions[@]}"; do
  # The same chapter files bookbuild reads: the corpus has the real book's layout (no book.toml).
  case "$e" in
    zh) folder="$book/manuscripts" ;;
    en) folder="$book/book-en" ;;
    zh-tw) folder="$book/book-zh-tw" ;;
    ru) folder="$book/book-ru/book" ;;
    *) echo "unknown edition $e"; exit 1 ;;
  esac
  mapfile -t files < <(cd "$folder" && ls | grep -E '^([0-9]+-.*|chapter[0-9]+|introduction|preface)\.md$' | sort -V)
  lang="$(awk -v e="$e" '$1 == e { gsub(/[():]/, "", $2); print $2 }' < <("$bookbuild" --book "$book" check 2>/dev/null))"

  bb_t=() bb_m=() bb_c=() pd_t=() pd_m=() pd_c=()
  for ((i = 0; i < runs; i++)); do
    read -r t m c < <(measure "$bookbuild" -q --book "$book" --out "$out/bb" epub --edition "$e" \
      --repository "$repository")
    bb_t+=("$t") bb_m+=("$m") bb_c+=("$c")
    read -r t m c < <(cd "$folder" && measure pandoc --from=markdown --to=epub3 --metadata title="$e" \
      --metadata lang="$lang" --resource-path=. -o "$out/pandoc-$e.epub" "${files[@]}")
    pd_t+=("$t") pd_m+=("$m") pd_c+=("$c")
  done
  bt="$(printf '%s\n' "${bb_t[@]}" | median)" bm="$(printf '%s\n' "${bb_m[@]}" | median)"
  pt="$(printf '%s\n' "${pd_t[@]}" | median)" pm="$(printf '%s\n' "${pd_m[@]}" | median)"
  bc="$(printf '%s\n' "${bb_c[@]}" | median)" pc="$(printf '%s\n' "${pd_c[@]}" | median)"
  awk -v e="$e" -v bt="$bt" -v pt="$pt" -v bm="$bm" -v pm="$pm" -v bc="$bc" -v pc="$pc" 'BEGIN {
    printf "%-8s %12.4f %12.4f %7.1fx   %12.1f %12.1f %7.1fx   %8.2f %8.2f %7.1fx\n", e, bt, pt,
           pt / (bt > 0 ? bt : 0.001), bm / 1024, pm / 1024, pm / bm, bc, pc, pc / (bc > 0 ? bc : 0.01) }'
  total_bb="$(awk -v a="$total_bb" -v b="$bt" 'BEGIN { print a + b }')"
  total_pd="$(awk -v a="$total_pd" -v b="$pt" 'BEGIN { print a + b }')"
done
awk -v bt="$total_bb" -v pt="$total_pd" 'BEGIN {
  printf "all      %12.4f %12.4f %7.1fx   (wall time, pandoc / bookbuild; target: at least 20x)\n", bt, pt,
         pt / (bt > 0 ? bt : 0.001) }'
