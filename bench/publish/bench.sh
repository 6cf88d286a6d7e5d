#!/usr/bin/env bash
# The whole publish of a book, bookbuild against the real book's way, in the same run: `bookbuild
# build` (site + EPUB + PDF per edition) vs MkDocs Material for the site, Pandoc for each EPUB and
# Pandoc → XeLaTeX for each PDF. Three cases: from empty, unchanged (a second build), and after a
# one-paragraph edit of the source edition's last chapter. Prints wall and CPU seconds and the ratios.
# Usage: bench/publish/bench.sh [BOOKBUILD] [BOOK]   (BOOK: default this repository's book; a copy is
# edited, never the book itself). Slow: the peers typeset every PDF each time (minutes per case).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build-release/builder/bookbuild}")"
src="$(realpath "${2:-$here}")"
source "$here/bench/lib.sh"
for tool in mkdocs pandoc xelatex; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (scripts/install-deps.sh --test)"; exit 1; }
done
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The book copied (its outputs and caches left behind), so that the edit touches only the copy.
book="$out/book"
mkdir -p "$book"
(cd "$src" && tar --exclude=./build --exclude='./build-*' --exclude=./.git -cf - .) | (cd "$book" && tar -xf -)

# The peer: one script doing what the real book's CI does.
mapfile -t projects < <(mkdocs_projects "$book" "$out")
mapfile -t editions < <(book_editions "$bookbuild" "$book")
peer="$out/peer.sh"
{
  echo "set -e"
  for p in "${projects[@]}"; do echo "(cd $p && mkdocs build -q -d $out/peer/site-$(basename "$p"))"; done
  for line in "${editions[@]}"; do
    read -r e lang <<<"$line"
    folder="$(edition_folder "$book" "$e")"
    files=""
    while read -r f; do files+=" $(printf '%q' "$folder/$f")"; done < <(chapter_files "$folder")
    common="pandoc --from=markdown --metadata title=$e --resource-path=$folder"
    echo "$common --metadata lang=$lang --to=epub3 -o $out/peer/$e.epub$files"
    # The PDF without `lang`: Pandoc would load babel, which has no file for zh-TW in Debian's TeX Live.
    # A PDF that Pandoc cannot typeset (an unsupported macro, a figure it cannot read such as a chart
    # spec) is counted with the time it took to fail, and the "peer PDFs" column says so.
    cjk="Noto Serif CJK SC"
    [[ "$lang" == zh-TW || "$lang" == zh-Hant* ]] && cjk="Noto Serif CJK TC"
    echo "$common --pdf-engine=xelatex -V CJKmainfont='$cjk' -o $out/peer/$e.pdf$files || echo 'pandoc pdf $e failed' >&2"
  done
} >"$peer"
mkdir -p "$out/peer"

edit() {  # one paragraph appended to the source edition's last chapter
  local folder last
  folder="$(edition_folder "$book" "$(echo "${editions[0]}" | cut -d' ' -f1)")"
  last="$(chapter_files "$folder" | tail -1)"
  printf '\nOne more paragraph, added by the benchmark at %s.\n' "$(date +%s%N)" >>"$folder/$last"
}

echo "bookbuild: $bookbuild; book: $src (${#editions[@]} editions)"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start (other work on the machine slows both sides)"
printf '%-10s %12s %12s %12s %12s %9s %9s %10s\n' case "bookbuild s" "cpu s" "peer s" "cpu s" "wall ×" "cpu ×" "peer PDFs"
row() {
  local name="$1" b p
  b="$(measure "$bookbuild" -q --book "$book" --out "$out/bb" build)"
  rm -f "$out"/peer/*.pdf
  p="$(measure bash "$peer")"
  # The peer's PDFs that Pandoc could typeset: a failed one is timed but is not a PDF (compare rows
  # only where the peer made them all).
  local made
  made="$(find "$out/peer" -name '*.pdf' | wc -l)/${#editions[@]}"
  read -r bw _ bc <<<"$b"
  read -r pw _ pc <<<"$p"
  awk -v n="$name" -v bw="$bw" -v bc="$bc" -v pw="$pw" -v pc="$pc" -v m="$made" \
    'BEGIN { printf "%-10s %12.2f %12.2f %12.2f %12.2f %9.1f %9.1f %10s\n", n, bw, bc, pw, pc, pw / bw, pc / bc, m }'
}
rm -rf "$out/bb"
row "empty"
row "unchanged"
edit
row "edit"
