#!/usr/bin/env bash
# The whole comparison in one run: bookbuild against the real book's tools on the same chapters —
# the site (both editions) against MkDocs Material, the EPUB and the LaTeX of each edition against
# Pandoc — in interleaved rounds (every job and its peer once per round, so that a burst of load on
# the shared machine hits both), and prints one table of medians: wall time, CPU time, peak RSS and
# the ratios peer / bookbuild. "Warm" runs rebuild into an output folder that already holds the
# previous build and its figure cache; "cold" runs start from an empty output folder (no figure
# cache), and are reported separately. The peers keep no cache, so their one figure serves both.
# Usage: bench/all.sh [BOOKBUILD] [BOOK]   (RUNS=5 warm rounds, COLD=3 cold rounds by default;
#        ONLY=REGEX keeps the jobs whose name matches, e.g. ONLY=site or ONLY='^epub';
#        BOOKBUILD_RUN_RECORD=0 makes every warm run build instead of replaying its record)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bookbuild="$(realpath "${1:-$here/build-release/builder/bookbuild}")"
book="$(realpath "${2:-$here/../shared/corpus/upstream}")"
runs="${RUNS:-5}"
cold_runs="${COLD:-3}"
# Links into the corpus's repository are made absolute with the upstream repository's URL.
repository="${REPOSITORY:-https://github.com/bojieli/ai-infra-book}"
source "$here/bench/lib.sh"
[[ -x "$bookbuild" ]] || { echo "no bookbuild at $bookbuild (scripts/build.sh first)"; exit 1; }
[[ -d "$book" ]] || { echo "no book at $book"; exit 1; }
for tool in mkdocs pandoc; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (scripts/install-deps.sh --test)"; exit 1; }
done

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The jobs: name, bookbuild's arguments, the peer's command line (one string each, run by bash).
jobs=() bb_cmd=() peer_cmd=()
mapfile -t projects < <(mkdocs_projects "$book" "$out")
mk="for p in ${projects[*]}; do (cd \$p && mkdocs build -q -d $out/mk-site) || exit 1; done"
jobs+=("site") bb_cmd+=("site") peer_cmd+=("$mk")
mapfile -t editions < <(book_editions "$bookbuild" "$book")
for kind in epub latex; do
  for line in "${editions[@]}"; do
    read -r e lang <<<"$line"
    folder="$(edition_folder "$book" "$e")"
    files=""
    while read -r f; do files+=" $(printf '%q' "$folder/$f")"; done < <(chapter_files "$folder")
    common="pandoc --from=markdown --metadata title=$e --metadata lang=$lang --resource-path=$folder"
    jobs+=("$kind $e")
    if [[ $kind == epub ]]; then
      bb_cmd+=("epub --edition $e --repository $repository")
      peer_cmd+=("$common --to=epub3 -o $out/pandoc-$e.epub$files")
    else
      bb_cmd+=("latex --edition $e")
      peer_cmd+=("$common --to=latex --standalone -o $out/pandoc-$e.tex$files")
    fi
  done
done
peers=("MkDocs Material")
for ((j = 1; j < ${#jobs[@]}; j++)); do peers+=("Pandoc"); done
if [[ -n "${ONLY:-}" ]]; then
  keep_jobs=() keep_bb=() keep_peer=() keep_peers=()
  for ((j = 0; j < ${#jobs[@]}; j++)); do
    [[ "${jobs[$j]}" =~ $ONLY ]] || continue
    keep_jobs+=("${jobs[$j]}") keep_bb+=("${bb_cmd[$j]}") keep_peer+=("${peer_cmd[$j]}") keep_peers+=("${peers[$j]}")
  done
  ((${#keep_jobs[@]})) || { echo "ONLY=$ONLY matches none of: ${jobs[*]}"; exit 1; }
  jobs=("${keep_jobs[@]}") bb_cmd=("${keep_bb[@]}") peer_cmd=("${keep_peer[@]}") peers=("${keep_peers[@]}")
fi

# bb JOB DIR: bookbuild's job into DIR; peer JOB: the peer's.
# A failed run stops the benchmark (no figure is printed for a failed command).
bb() { measure "$bookbuild" -q --book "$book" --out "$2" ${bb_cmd[$1]} || fail "bookbuild ${jobs[$1]}"; }
peer() { measure bash -c "${peer_cmd[$1]}" || fail "${peers[$1]} for ${jobs[$1]}"; }

echo "bookbuild: $bookbuild ($(stat -c %y "$bookbuild" | cut -d. -f1))"
echo "book: $book; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
# A warm run whose inputs and outputs did not change replays the last run's record (docs/pipeline.md,
# "Run records"); BOOKBUILD_RUN_RECORD=0 measures the builds themselves.
if [[ "${BOOKBUILD_RUN_RECORD:-}" == 0 || "${BOOKBUILD_RUN_RECORD:-}" == off ]]; then
  echo "run records: off (BOOKBUILD_RUN_RECORD=0): every warm run builds"
else
  echo "run records: on (the default): a warm run of an unchanged book replays the last run's record"
fi
echo "warming up (one run of every job)"
for ((j = 0; j < ${#jobs[@]}; j++)); do
  bb "$j" "$out/warm-$j" >/dev/null
  peer "$j" >/dev/null
done

declare -A samples  # "job kind" → lines of "wall kb cpu"
for ((r = 0; r < runs || r < cold_runs; r++)); do
  printf '\rround %d/%d' "$((r + 1))" "$((runs > cold_runs ? runs : cold_runs))"
  for ((j = 0; j < ${#jobs[@]}; j++)); do
    if ((r < runs)); then
      samples["$j warm"]+="$(bb "$j" "$out/warm-$j")"$'\n'
      samples["$j peer"]+="$(peer "$j")"$'\n'
    fi
    if ((r < cold_runs)); then
      rm -rf "$out/cold-$j"
      samples["$j cold"]+="$(bb "$j" "$out/cold-$j")"$'\n'
    fi
  done
done
printf '\r%*s\r' 20 ''

# med JOB KIND FIELD: the median of one field (1 wall, 2 peak KB, 3 CPU) of a job's samples.
med() { printf '%s' "${samples["$1 $2"]}" | awk -v f="$3" 'NF { print $f }' | median; }

table() {  # table KIND: the table of bookbuild's KIND runs against the peers
  local kind="$1" sum_b=0 sum_p=0 sum_bc=0 sum_pc=0 max_kb=0 worst=1e9
  printf '| job | bookbuild wall s / CPU s / MB | peer | peer wall s / CPU s / MB | wall ratio | CPU ratio |\n'
  printf '| --- | --- | --- | --- | --- | --- |\n'
  for ((j = 0; j < ${#jobs[@]}; j++)); do
    local bw bk bc pw pk pc
    bw="$(med "$j" "$kind" 1)" bk="$(med "$j" "$kind" 2)" bc="$(med "$j" "$kind" 3)"
    pw="$(med "$j" peer 1)" pk="$(med "$j" peer 2)" pc="$(med "$j" peer 3)"
    awk -v n="${jobs[$j]}" -v peer="${peers[$j]}" -v bw="$bw" -v bk="$bk" -v bc="$bc" -v pw="$pw" \
      -v pk="$pk" -v pc="$pc" 'BEGIN {
      printf "| %s | %.3f / %.3f / %.0f | %s | %.3f / %.3f / %.0f | %.1f× | %.1f× |\n", n, bw, bc, bk / 1024,
             peer, pw, pc, pk / 1024, pw / bw, pc / (bc > 0 ? bc : 0.005) }'
    read -r sum_b sum_p sum_bc sum_pc max_kb worst < <(awk -v a="$sum_b" -v b="$sum_p" -v c="$sum_bc" \
      -v d="$sum_pc" -v m="$max_kb" -v w="$worst" -v bw="$bw" -v pw="$pw" -v bc="$bc" -v pc="$pc" \
      -v bk="$bk" 'BEGIN { r = pw / bw; print a + bw, b + pw, c + bc, d + pc, (bk > m ? bk : m), (r < w ? r : w) }')
  done
  awk -v b="$sum_b" -v p="$sum_p" -v bc="$sum_bc" -v pc="$sum_pc" 'BEGIN {
    printf "| **sum** | **%.3f / %.3f** | | **%.3f / %.3f** | **%.1f×** | **%.1f×** |\n", b, bc, p, pc, p / b,
           pc / (bc > 0 ? bc : 0.005) }'
  awk -v w="$worst" -v m="$max_kb" 'BEGIN {
    printf "goals (issue 49: every job ≥ 50×, peak RSS ≤ 30 MB): worst job %.1f× %s, peak %.0f MB %s\n",
           w, (w >= 50 ? "met" : "NOT met"), m / 1024, (m <= 30 * 1024 ? "met" : "NOT met") }'
}

echo "warm: median of $runs interleaved rounds (output folder and figure cache from the previous run)"
table warm
if ((cold_runs > 0)); then  # COLD=0: warm rounds only
  echo
  echo "cold: median of $cold_runs rounds from an empty output folder (no figure cache); peers as above"
  table cold
fi
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end ($(date -u '+%Y-%m-%d %H:%M UTC'))"
