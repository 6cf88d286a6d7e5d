#!/usr/bin/env bash
# Fails when a folder of builder/ uses a folder on its own floor or above it in cmake/layers.txt: by an
# #include line in any of its source files (every suffix; `<…>`, `"…"` and `"../…"` forms), or by a dependency between CMake targets (from cmake --graphviz):
# the folders' libraries (bookbuild_<folder>) and the dlopen modules (bookbuild_module(NAME folder/…),
# which count as the folder of their source). Also fails when a folder of builder/ is missing from the
# layers file or named twice, and when a source file of builder/ is over 600 lines.
# tests/layout/check_layers_test.sh plants each fault to show that it fails.
# Usage: check_layers.sh SOURCE_DIR [CMAKE]
set -euo pipefail
src="$(cd "$1" && pwd)"
cmake="${2:-}"
declare -A rank
n=0
fail=0
while read -r line; do
  line="${line%%#*}"
  [[ -z "${line// /}" ]] && continue
  for folder in $line; do
    if [[ -n "${rank[$folder]+x}" ]]; then
      echo "cmake/layers.txt: builder/$folder is named twice"
      fail=1
    fi
    rank[$folder]=$n
  done
  n=$((n + 1))
done <"$src/cmake/layers.txt"

for dir in "$src"/builder/*/; do
  folder="$(basename "$dir")"
  if [[ -z "${rank[$folder]+x}" ]]; then
    echo "builder/$folder is not in cmake/layers.txt"
    fail=1
  fi
done

# Edges, one "WHERE FROM TO" per line on stdin: FROM may use TO only when TO is on a lower floor.
# (One awk for every edge: a shell loop over a thousand #include lines takes minutes on a busy machine.)
check_edges() {
  local floors
  floors="$(for f in "${!rank[@]}"; do echo "$f ${rank[$f]}"; done)"
  awk -v floors="$floors" '
    BEGIN { n = split(floors, lines, "\n"); for (i = 1; i <= n; i++) { split(lines[i], p, " "); r[p[1]] = p[2] } }
    { to = $NF; from = $(NF - 1); $NF = ""; $(NF - 1) = ""; sub(/ +$/, ""); where = $0
      if (from == to || !(from in r) || !(to in r)) next
      if (r[to] > r[from]) { printf "%s: builder/%s (floor %d) uses %s (floor %d), which is above it\n", where, from, r[from], to, r[to]; bad = 1 }
      else if (r[to] == r[from]) { printf "%s: builder/%s uses %s, which is on the same floor (%d); put %s above it\n", where, from, to, r[from], from; bad = 1 } }
    END { exit bad }'
}

# The files the guard reads: every source and header suffix, so that a fault cannot hide in a `.inc`.
sources=(-name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.h' -o -name '*.hh' -o -name '*.hpp'
  -o -name '*.hxx' -o -name '*.inc' -o -name '*.inl' -o -name '*.ipp' -o -name '*.tpp' -o -name '*.in' -o -name '*.lua')

# Includes from builder/<folder>/…, in every form: `#include "other/…"` and `#include <other/…>` (builder/
# is on the include path), and a path relative to the including file (`"../other/…"`, `"./x/../../other/…"`),
# which is resolved first. Names that are no folder of builder/ (`<string>`, `<lua.hpp>`) are not edges.
find "$src/builder" -type f \( "${sources[@]}" \) -exec grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]+[>"]' {} + |
  sed -E "s|^$src/||" |
  awk '
    function normal(path,    parts, n, i, out, k) {  # a/b/../c/./d -> a/c/d; "" when it leaves its root
      n = split(path, parts, "/"); k = 0
      for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".") continue
        if (parts[i] == "..") { if (k == 0) return ""; k--; continue }
        out[++k] = parts[i]
      }
      path = ""; for (i = 1; i <= k; i++) path = path (i > 1 ? "/" : "") out[i]
      return path
    }
    { match($0, /^[^:]+:[0-9]+:/); where = substr($0, 1, RLENGTH - 1); rest = substr($0, RLENGTH + 1)
      file = where; sub(/:[0-9]+$/, "", file); split(file, f, "/"); from = f[2]
      match(rest, /[<"][^>"]+[>"]/); name = substr(rest, RSTART + 1, RLENGTH - 2)
      if (name ~ /^\.\.?\//) { dir = file; sub(/\/[^\/]*$/, "", dir); path = normal(dir "/" name) }
      else path = "builder/" normal(name)
      n = split(path, p, "/")
      if (n < 3 || p[1] != "builder") next
      print where, from, p[2] }' |
  check_edges || fail=1

# Targets: every edge between bookbuild_<folder> libraries and from the modules in the CMake graph.
# An edge into a module is not a use: a module is loaded with dlopen by the folder that declares its
# interface (figures/pdf_render.h for the SVG module), so the module depends on that folder, and its
# own links and includes are what is checked.
if [[ -n "$cmake" ]]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  if ! "$cmake" -S "$src" -B "$out/build" -DBOOKBUILD_TESTS=OFF --graphviz="$out/graph.dot" >"$out/log" 2>&1; then
    cat "$out/log"
    echo "cmake could not configure $src: the target graph is not checked"
    exit 1
  fi
  declare -A folder_of
  for f in "${!rank[@]}"; do folder_of[bookbuild_$f]="$f"; done
  while read -r target folder; do folder_of[$target]="$folder"; done < <(
    grep -rhoE 'bookbuild_module\([a-z_]+ +[a-z_]+/' "$src/builder" --include=CMakeLists.txt |
      sed -E 's/bookbuild_module\(([a-z_]+) +([a-z_]+)\//\1 \2/')
  declare -A name_of
  while read -r node label; do name_of[$node]="$label"; done < <(
    sed -nE 's/^[[:space:]]*"(node[0-9]+)" \[ label = "([^"]+)".*/\1 \2/p' "$out/graph.dot")
  declare -A is_module
  while read -r target _; do is_module[$target]=1; done < <(
    grep -rhoE 'bookbuild_module\([a-z_]+ ' "$src/builder" --include=CMakeLists.txt | sed -E 's/bookbuild_module\(//')
  while read -r a b; do
    from="${name_of[$a]}" to="${name_of[$b]}"
    [[ -z "${folder_of[$from]+x}" || -z "${folder_of[$to]+x}" || -n "${is_module[$to]+x}" ]] && continue
    echo "CMake:$from->$to ${folder_of[$from]} ${folder_of[$to]}"
  done < <(sed -nE 's/^[[:space:]]*"(node[0-9]+)" -> "(node[0-9]+)".*/\1 \2/p' "$out/graph.dot") |
    check_edges || fail=1
fi

# One way in for TOML: toml++ has input on which it has undefined behaviour, and tomlfile/parse.cpp guards
# against it; a toml::parse anywhere else reads a book's file unguarded.
while IFS=: read -r file line _; do
  echo "$file:$line: toml::parse outside builder/tomlfile/: read TOML with tomlfile::parse (the guard)"
  fail=1
done < <(find "$src/builder" -type f \( "${sources[@]}" \) -exec grep -nHE 'toml::parse(_file)?[[:space:]]*\(' {} + |
  grep -v "^$src/builder/tomlfile/")

# Rooms of one job: no source file of builder/ over 600 lines (issue 33); a file that grows past it is
# split by what it does, as bookfilters/contents.cpp was from elements.cpp.
while read -r lines file; do
  [[ "$file" == total ]] && continue
  if ((lines > 600)); then
    echo "${file#"$src"/}:601: $lines lines, over the 600 a file of builder/ may have: split it by what it does"
    fail=1
  fi
done < <(find "$src/builder" -type f \( "${sources[@]}" \) -exec wc -l {} +)

if ((fail)); then exit 1; fi
echo "layers respected: $(wc -l < <(grep -rlE '#include "' "$src/builder")) files, ${#rank[@]} folders, $n floors"
