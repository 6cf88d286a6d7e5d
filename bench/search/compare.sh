#!/usr/bin/env bash
# Sizes of bookbuild's search index against MkDocs Material's search_index.json for the same chapters
# (the corpus: two chapters per edition), and what a reader downloads for one query. Not a test: it
# prints sizes and ratios. Needs a build (search_index_tool), node, and the Debian packages mkdocs and
# mkdocs-material.
#
#   bench/search/compare.sh [build dir] [corpus dir]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$src/build}" && pwd)"
corpus="$(cd "${2:-$src/../shared/corpus/upstream}" && pwd)"
tool="$build/tests/search/search_index_tool"
[[ -x "$tool" ]] || { echo "missing $tool: build the project first" >&2; exit 1; }
command -v mkdocs >/dev/null || { echo "mkdocs not installed (apt-get install mkdocs mkdocs-material)" >&2; exit 1; }

tmp="$(mktemp -d /tmp/bb-search-bench.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT

echo "bookbuild index (builder/search/search_index.cpp):"
"$tool" corpus "$corpus" "$tmp/bookbuild" | sed 's/^/  /'

# One MkDocs project per edition with the same chapters, the Material theme and its search plugin.
declare -A folder=([zh]=manuscripts [en]=book-en)
declare -A mkdocs_size mkdocs_gz
for ed in zh en; do
  proj="$tmp/mkdocs-$ed"
  mkdir -p "$proj/docs"
  cp "$corpus/${folder[$ed]}"/*.md "$proj/docs/"
  [[ -d "$corpus/${folder[$ed]}/images" ]] && ln -s "$corpus/${folder[$ed]}/images" "$proj/docs/images"
  cat >"$proj/mkdocs.yml" <<YAML
site_name: corpus-$ed
theme:
  name: material
  language: $ed
plugins:
  - search
YAML
  (cd "$proj" && mkdocs build -q -d site 2>/dev/null)
  mkdocs_size[$ed]=$(stat -c %s "$proj/site/search/search_index.json")
  mkdocs_gz[$ed]=$(gzip -9 -c "$proj/site/search/search_index.json" | wc -c)
done

declare -A queries_zh=([1]="矩阵" [2]="显存" [3]="带宽" [4]="计算单元" [5]="Qwen3-8B" [6]="KV 缓存" [7]="双缓冲" [8]="H100" [9]="算子融合" [10]="的")
declare -A queries_en=([1]="matrix" [2]="memory bandwidth" [3]="Qwen3-8B" [4]="KV cache" [5]="roofline" [6]="tensor core" [7]="H100" [8]="double buffering" [9]="kernel fusion" [10]="the")
echo
printf '%-8s %12s %12s %8s   %14s %12s %8s\n' edition mkdocs bookbuild ratio "query (bound)" measured ratio
for ed in zh en; do
  dir="$tmp/bookbuild/$ed"
  total=$(cat "$dir"/* | wc -c)
  bound=$("$tool" corpus "$corpus" "$tmp/again" | sed -n "s/^edition=$ed .*largest_query_bytes=\([0-9]*\).*/\1/p")
  declare -n q="queries_$ed"
  list=()
  for k in $(printf '%s\n' "${!q[@]}" | sort -n); do list+=("${q[$k]}"); done
  node "$here/queries.mjs" "$src/website/search.js" "$dir" "${list[@]}" >"$tmp/q-$ed.txt"
  measured=$(sed -n 's/^  largest: \([0-9]*\) bytes/\1/p' "$tmp/q-$ed.txt")
  m=${mkdocs_size[$ed]}
  printf '%-8s %12d %12d %7.1f%%   %14d %12d %7.1f%%\n' "$ed" "$m" "$total" "$(echo "100*$total/$m" | bc -l)" \
    "$bound" "$measured" "$(echo "100*$measured/$m" | bc -l)"
done
echo
echo "mkdocs: site/search/search_index.json, downloaded whole before the first query."
echo "        (gzip -9 of it, as a compressing server would send it: zh ${mkdocs_gz[zh]}, en ${mkdocs_gz[en]} bytes)"
echo "bookbuild: all files of search/; query (bound) = docs.json + largest shard + 10 largest text chunks;"
echo "measured = the most any of these queries fetched, cold, first page of 10 results:"
for ed in zh en; do echo " $ed:"; cat "$tmp/q-$ed.txt"; done
