#!/usr/bin/env bash
# The layering guard (check_layers.sh) must be able to fail: on a copy of builder/ and cmake/, plant one
# fault at a time (an upward #include in each form — "a/…", <a/…>, "../a/…" — and in each source suffix,
# an #include between two folders of one floor, a folder missing
# from cmake/layers.txt, a TOML read outside tomlfile/, a file over 600 lines, an upward CMake link between libraries, a module linking a library above its
# folder) and expect the guard to fail and to name the fault; the untouched copy must pass.
# Usage: check_layers_test.sh SOURCE_DIR [CMAKE]   (without CMAKE, the CMake faults are not planted)
set -euo pipefail
src="$(cd "$1" && pwd)"
cmake="${2:-}"
check="$src/tests/layout/check_layers.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# fresh: a clean copy of what the guard reads (and, for CMake, what configuring the project needs).
fresh() {
  rm -rf "$work/src"
  mkdir -p "$work/src"
  (cd "$src" && cp -r builder cmake CMakeLists.txt "$work/src/")
  [[ -d "$src/fuzz" ]] && cp -r "$src/fuzz" "$work/src/"
  return 0
}

# expect PASS|FAIL PATTERN NAME [CMAKE]: runs the guard on the copy.
expect() {
  local want="$1" pattern="$2" name="$3" out rc=0
  out="$("$check" "$work/src" ${4:-} 2>&1)" || rc=$?
  if [[ "$want" == PASS && $rc != 0 ]]; then
    echo "FAIL: $name: the guard failed on a clean copy:"
    echo "$out"
    failures=$((failures + 1))
  elif [[ "$want" == FAIL && ($rc == 0 || ! "$out" =~ $pattern) ]]; then
    echo "FAIL: $name: the guard did not report it (exit $rc):"
    echo "$out"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

# The floors as the layers file names them: the bottom floor's first folder, the top floor's first,
# and two folders sharing a line.
floors="$(sed 's/#.*//' "$src/cmake/layers.txt" | awk 'NF')"
bottom="$(head -1 <<<"$floors" | awk '{print $1}')"
top="$(tail -1 <<<"$floors" | awk '{print $1}')"
second="$(sed -n 2p <<<"$floors" | awk '{print $1}')"
shared="$(awk 'NF > 1 { print $1, $2; exit }' <<<"$floors")"

fresh
expect PASS "" "clean copy"

fresh
printf '#include "%s/planted.hpp"\n' "$top" >>"$work/src/builder/$bottom/planted.cpp"
expect FAIL "builder/$bottom/planted.cpp:1: builder/$bottom .* uses $top .*above it" "upward #include"

# Every form an #include can take to reach another folder, and every suffix a source file can have.
plant_include() {  # FILE LINE NAME: the include line in builder/$bottom/FILE, reaching the top floor
  fresh
  printf '// planted\n%s\n' "$2" >"$work/src/builder/$bottom/$1"
  expect FAIL "builder/$bottom/$1:2: builder/$bottom .* uses $top .*above it" "$3"
}
plant_include planted.cpp "#include <$top/planted.hpp>" "upward #include <…>"
plant_include planted.cpp "#include \"../$top/planted.hpp\"" "upward #include \"../…\""
plant_include planted.cpp "#include \"./sub/../../$top/planted.hpp\"" "upward #include \"./…/../…\""
plant_include planted.cpp "#include \"$bottom/../$top/planted.hpp\"" "upward #include \"a/../b/…\""
for suffix in inc ipp tpp inl cc hh; do
  plant_include "planted.$suffix" "#include \"$top/planted.hpp\"" "upward #include in a .$suffix file"
done
# Angle brackets naming something that is no folder of builder/ are system headers, not edges.
fresh
printf '#include <string>\n#include <lua.hpp>\n#include "../../tests/x.hpp"\n' >"$work/src/builder/$bottom/planted.cpp"
expect PASS "" "system headers and paths out of builder/"

fresh
seq 601 | sed 's|^|// line |' >"$work/src/builder/$top/planted.ipp"
expect FAIL "builder/$top/planted.ipp:601: 601 lines, over the 600" "a .ipp file over 600 lines"

fresh
seq 601 | sed 's|^|// line |' >"$work/src/builder/$top/planted.cpp"
expect FAIL "builder/$top/planted.cpp:601: 601 lines, over the 600" "a file over 600 lines"

fresh
printf '// planted\nauto t = toml::parse (text);\n' >"$work/src/builder/$top/planted.cpp"
expect FAIL "builder/$top/planted.cpp:2: toml::parse outside builder/tomlfile/" "unguarded TOML read"

if [[ -n "$shared" ]]; then
  read -r a b <<<"$shared"
  fresh
  printf '// planted\n  #  include "%s/planted.hpp"\n' "$b" >"$work/src/builder/$a/planted.hpp"
  expect FAIL "builder/$a/planted.hpp:2: builder/$a uses $b, which is on the same floor" "same-floor #include"
fi

fresh
mkdir "$work/src/builder/planted"
expect FAIL "builder/planted is not in cmake/layers.txt" "folder missing from the layers"

if [[ -n "$cmake" ]]; then
  fresh
  # One floor up (a link to the top would close a cycle through the modules, which CMake refuses).
  echo "target_link_libraries(bookbuild_$bottom PUBLIC bookbuild_$second)" >>"$work/src/builder/CMakeLists.txt"
  expect FAIL "CMake:bookbuild_$bottom->bookbuild_$second: builder/$bottom .* uses $second" "upward CMake link" "$cmake"

  module="$(grep -ohE 'bookbuild_module\([a-z_]+ +[a-z_]+/' "$src/builder/CMakeLists.txt" | head -1 |
    sed -E 's/bookbuild_module\(([a-z_]+) +([a-z_]+)\//\1 \2/')"
  read -r target folder <<<"$module"
  # A folder on the floor just above the module's, which does not load the module (no cycle).
  above="$(awk -v f="$folder" '{ for (i = 1; i <= NF; i++) if ($i == f) { getline; print $1; exit } }' <<<"$floors")"
  fresh
  echo "target_link_libraries($target PRIVATE bookbuild_$above)" >>"$work/src/builder/CMakeLists.txt"
  expect FAIL "CMake:$target->bookbuild_$above: builder/$folder .* uses $above" "module linking upwards" "$cmake"
fi

((failures == 0)) || exit 1
echo "the layering guard fails on every planted fault"
