#!/usr/bin/env bash
# Builds the corpus website with bookbuild (figure cache warm) and with MkDocs Material (Debian's
# mkdocs and mkdocs-material, with the arithmatex math extension the real book uses) on the same
# chapter files, in the same run, and prints the ratios of wall time and peak memory
# (mkdocs / bookbuild). Each measurement is the median of RUNS runs (default 5). MkDocs has no
# multilingual mode: it builds one project per edition, which together are compared with one
# bookbuild run that builds every edition (and the search index, sitemap and 404 page).
# Usage: bench/site/bench.sh [BOOKBUILD] [BOOK]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="${1:-$here/build/builder/bookbuild}"
book="${2:-$here/../shared/corpus/upstream}"
runs="${RUNS:-5}"
[[ -x "$bookbuild" ]] || { echo "no bookbuild at $bookbuild (build first)"; exit 1; }
[[ -d "$book" ]] || { echo "no book at $book"; exit 1; }
command -v mkdocs >/dev/null || { echo "mkdocs is not installed (scripts/install-deps.sh --test)"; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install time)"; exit 1; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# measure CMD...: "seconds kilobytes cpu-seconds" (wall clock in ns; peak RSS and CPU from /usr/bin/time).
measure() {
  local start end
  start="$(date +%s%N)"
  /usr/bin/time -f '%M %U %S' -o "$out/rss" "$@" >/dev/null 2>"$out/err" || { cat "$out/err"; exit 1; }
  end="$(date +%s%N)"
  read -r kb user sys < <(tail -1 "$out/rss")
  awk -v ns="$((end - start))" -v kb="$kb" -v u="$user" -v s="$sys" 'BEGIN { printf "%.4f %d %.2f\n", ns / 1e9, kb, u + s }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One MkDocs project per edition folder of the book, with the same chapters and figures.
declare -A lang=([manuscripts]=zh [book-en]=en [book-zh-tw]=zh-TW [book-ru/book]=ru)
projects=()
for folder in manuscripts book-en book-zh-tw book-ru/book; do
  [[ -d "$book/$folder" ]] || continue
  proj="$out/mkdocs-${folder//\//-}"
  mkdir -p "$proj"
  ln -s "$book/$folder" "$proj/docs"
  cat >"$proj/mkdocs.yml" <<YAML
site_name: bench
theme:
  name: material
  language: ${lang[$folder]%%-*}
plugins:
  - search
markdown_extensions:
  - tables
  - footnotes
  - pymdownx.arithmatex:
      generic: true
YAML
  projects+=("$proj")
done
mkdocs_all() { for p in "${projects[@]}"; do (cd "$p" && mkdocs build -q -d "$out/mk-site" 2>/dev/null); done; }
export -f mkdocs_all
export out
printf -v projects_list '%s ' "${projects[@]}"

echo "warming the figure cache"
"$bookbuild" -q --book "$book" --out "$out/bb" site >/dev/null 2>&1

bb_t=() bb_m=() bb_c=() mk_t=() mk_m=() mk_c=()
for ((i = 0; i < runs; i++)); do
  read -r t m c < <(measure "$bookbuild" -q --book "$book" --out "$out/bb" site)
  bb_t+=("$t") bb_m+=("$m") bb_c+=("$c")
  read -r t m c < <(measure bash -c "for p in $projects_list; do (cd \$p && mkdocs build -q -d $out/mk-site) || exit 1; done")
  mk_t+=("$t") mk_m+=("$m") mk_c+=("$c")
done
bt=$(printf '%s\n' "${bb_t[@]}" | median) mt=$(printf '%s\n' "${mk_t[@]}" | median)
bm=$(printf '%s\n' "${bb_m[@]}" | median) mm=$(printf '%s\n' "${mk_m[@]}" | median)
bc=$(printf '%s\n' "${bb_c[@]}" | median) mc=$(printf '%s\n' "${mk_c[@]}" | median)
echo "corpus site, ${#projects[@]} editions, median of $runs runs:"
awk -v bt="$bt" -v mt="$mt" -v bm="$bm" -v mm="$mm" -v bc="$bc" -v mc="$mc" 'BEGIN {
  printf "  wall time:   bookbuild %.3f s, mkdocs %.3f s, ratio %.1fx\n", bt, mt, mt / bt
  printf "  peak memory: bookbuild %.1f MB, mkdocs %.1f MB, ratio %.1fx\n", bm / 1024, mm / 1024, mm / bm
  printf "  cpu time:    bookbuild %.2f s, mkdocs %.2f s\n", bc, mc }'
