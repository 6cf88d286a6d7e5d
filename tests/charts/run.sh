#!/usr/bin/env bash
# Chart specs → SVG, as data: every tests/charts/cases/NAME.chart.toml is drawn for each edition of
# this repository's book and compared with NAME.EDITION.svg (drawn twice: the bytes must not change);
# an error-*.chart.toml must fail with NAME.err on stderr (every problem, each at its line); and a
# changed peak in a copy of calculations/configs/hardware.json must change the roofline (ridge 295 → 450).
# Usage: run.sh BOOKBUILD SOURCE_DIR [--update]   (--update rewrites the expected files)
set -euo pipefail
bb="$1"
src="$2"
update="${3:-}"
cases="$src/tests/charts/cases"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0

draw() {  # book edition spec → stdout
  "$bb" --book "$1" -q chart "$3" --edition "$2"
}

for spec in "$cases"/*.chart.toml; do
  name="$(basename "$spec" .chart.toml)"
  if [[ "$name" == error-* ]]; then
    if "$bb" --book "$src" -q chart "$spec" >"$tmp/out" 2>"$tmp/err"; then
      echo "FAIL $name: drawn, but it should be refused"
      fail=1
    fi
    sed -i "s|$src/||g" "$tmp/err"
    if [[ "$update" == --update ]]; then cp "$tmp/err" "$cases/$name.err"; fi
    if ! diff -u "$cases/$name.err" "$tmp/err"; then
      echo "FAIL $name: diagnostics differ"
      fail=1
    fi
    continue
  fi
  for edition in zh en zh-tw ru; do
    expected="$cases/$name.$edition.svg"
    draw "$src" "$edition" "$spec" >"$tmp/a.svg"
    draw "$src" "$edition" "$spec" >"$tmp/b.svg"
    if ! cmp -s "$tmp/a.svg" "$tmp/b.svg"; then
      echo "FAIL $name ($edition): two runs gave different bytes"
      fail=1
    fi
    if grep -q "<script" "$tmp/a.svg" || ! grep -q "<title id=\"chart-title\">[^<]" "$tmp/a.svg"; then
      echo "FAIL $name ($edition): a script, or no title"
      fail=1
    fi
    if [[ "$update" == --update ]]; then cp "$tmp/a.svg" "$expected"; fi
    if ! diff -u "$expected" "$tmp/a.svg" >"$tmp/diff"; then
      head -40 "$tmp/diff"
      echo "FAIL $name ($edition): SVG differs from $(basename "$expected")"
      fail=1
    fi
  done
done

# Each edition's own words: the Russian title and number format are in the Russian SVG only.
if ! grep -q "Модель крыши H100" "$cases/roofline-h100.ru.svg" || grep -q "Модель крыши" "$cases/roofline-h100.en.svg"; then
  echo "FAIL: the editions' titles are not their own"
  fail=1
fi

# A hardware fact changed in a copy of the book's calculations changes the chart that uses it.
mkdir -p "$tmp/book/en"
printf '[book]\ntitle = "t"\n\n[[edition]]\nid = "en"\nlang = "en"\nfolder = "en"\nchapters = ["chapter01.md"]\n' >"$tmp/book/book.toml"
printf '# A\n' >"$tmp/book/en/chapter01.md"
cp -r "$src/calculations" "$tmp/book/"
sed -i '0,/"tera_ops_per_second": 989.4/s//"tera_ops_per_second": 1500.0/' "$tmp/book/calculations/configs/hardware.json"
draw "$tmp/book" en "$cases/roofline-h100.chart.toml" >"$tmp/changed.svg" || true
if cmp -s "$tmp/changed.svg" "$cases/roofline-h100.en.svg" || ! grep -q "Ridge point 450" "$tmp/changed.svg"; then
  echo "FAIL: a changed H100 peak did not change the roofline"
  fail=1
fi
exit $fail
