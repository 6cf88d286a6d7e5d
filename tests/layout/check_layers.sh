#!/usr/bin/env bash
# Fails when a folder of builder/ uses a folder above it in cmake/layers.txt: by an #include line in
# any of its files, or by a link dependency between the folders' CMake libraries (from cmake
# --graphviz). Also fails when a folder of builder/ is missing from the layers file.
# Usage: check_layers.sh SOURCE_DIR [CMAKE BINARY_DIR]
set -euo pipefail
src="$1"
cmake="${2:-}"
bin="${3:-}"
declare -A rank
n=0
while read -r line; do
  line="${line%%#*}"
  [[ -z "${line// /}" ]] && continue
  for folder in $line; do rank[$folder]=$n; done
  n=$((n + 1))
done <"$src/cmake/layers.txt"

fail=0
for dir in "$src"/builder/*/; do
  folder="$(basename "$dir")"
  if [[ -z "${rank[$folder]+x}" ]]; then
    echo "builder/$folder is not in cmake/layers.txt"
    fail=1
  fi
done

# Includes: `#include "other/…"` from builder/<folder>/….
while IFS=: read -r file lineno text; do
  folder="${file#"$src"/builder/}"
  folder="${folder%%/*}"
  used="$(sed -E 's/^[[:space:]]*#include "([a-z_]+)\/.*/\1/' <<<"$text")"
  [[ "$used" == "$folder" || -z "${rank[$used]+x}" || -z "${rank[$folder]+x}" ]] && continue
  if ((rank[$used] > rank[$folder])); then
    echo "${file#"$src"/}:$lineno: builder/$folder (layer ${rank[$folder]}) includes $used (layer ${rank[$used]}), which is above it"
    fail=1
  fi
done < <(grep -rnE '^[[:space:]]*#include "[a-z_]+/' "$src/builder" --include=*.cpp --include=*.hpp --include=*.h)

# Libraries: edges between bookbuild_<folder> targets in the CMake graph.
if [[ -n "$cmake" && -n "$bin" ]]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  "$cmake" -S "$src" -B "$out/build" -DBOOKBUILD_TESTS=OFF --graphviz="$out/graph.dot" >/dev/null
  declare -A name_of
  while read -r node label; do name_of[$node]="$label"; done < <(
    sed -nE 's/^[[:space:]]*"(node[0-9]+)" \[ label = "([^"]+)".*/\1 \2/p' "$out/graph.dot")
  while read -r a b; do
    from="${name_of[$a]#bookbuild_}"
    to="${name_of[$b]#bookbuild_}"
    [[ -z "${rank[$from]+x}" || -z "${rank[$to]+x}" || "$from" == "$to" ]] && continue
    if ((rank[$to] > rank[$from])); then
      echo "CMake: bookbuild_$from (layer ${rank[$from]}) links bookbuild_$to (layer ${rank[$to]}), which is above it"
      fail=1
    fi
  done < <(sed -nE 's/^[[:space:]]*"(node[0-9]+)" -> "(node[0-9]+)".*/\1 \2/p' "$out/graph.dot")
fi

if ((fail)); then exit 1; fi
echo "layers respected: $(wc -l < <(grep -rlE '#include "' "$src/builder")) files, ${#rank[@]} folders"
