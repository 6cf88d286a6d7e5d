#!/usr/bin/env bash
# Where does an edit's time go under `site --serve`, on this book and on its SCALE× copy? Serves each
# book (bench/scale/generate.py makes the large one) with BOOKBUILD_TIMINGS=1, appends a sentence to
# book-en/introduction.md EDITS times, 0.4 s apart, and reads the server's own laps for each edit:
# find, parse, resolve, render, patch (the open page's patch is sent at its end) and write. Prints
# each round's medians, then the median over rounds of each step and the ratio of the time to the
# patch (SCALE× over 1×). No browser: this is the server's part of bench/site/reload-scale.sh, without
# the browser's noise. Not a test: it prints a table.
# Usage: bench/site/edit-laps.sh [BOOKBUILD] [SCALE]   (ROUNDS=3 rounds of EDITS=15 edits each)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build/builder/bookbuild}")"
scale="${2:-100}"
rounds="${ROUNDS:-3}"
edits="${EDITS:-15}"
work="$(mktemp -d)"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
python3 "$here/bench/scale/generate.py" "$scale" "$work/big" >/dev/null

# One server on a copy of book $1 (without its build and .git folders); the laps of its edits go to $2.
round() {
  local book="$1" laps="$2" run="$work/run"
  rm -rf "$run" && mkdir -p "$run/book"
  tar -C "$book" --exclude=./build --exclude=./.git -cf - . | tar -C "$run/book" -xf -
  BOOKBUILD_TIMINGS=1 "$bookbuild" --book "$run/book" --out "$run/out" site --serve --port 18743 \
    2>"$run/log" &
  server=$!
  for ((i = 0; i < 6000; i++)); do grep -q "site: serving" "$run/log" && break; sleep 0.1; done
  # The first build's search index follows the pages; edits start once the server is quiet.
  for ((i = 0; i < 600; i++)); do
    local size; size="$(wc -c <"$run/log")"; sleep 1
    [[ "$(wc -c <"$run/log")" == "$size" ]] && break
  done
  local from; from="$(wc -l <"$run/log")"
  for ((i = 1; i <= edits; i++)); do
    printf '\nA sentence added by edit-laps, number %d.\n' "$i" >>"$run/book/book-en/introduction.md"
    sleep 0.4
  done
  sleep 0.5
  kill "$server" && wait "$server" 2>/dev/null || true
  server=""
  tail -n +"$((from + 1))" "$run/log" >"$laps"
}

for ((r = 1; r <= rounds; r++)); do
  round "$here" "$work/laps-1-$r"
  round "$work/big" "$work/laps-$scale-$r"
done

python3 - "$work" "$scale" "$rounds" <<'PY'
import re, statistics, sys
work, scale, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
steps = ["find", "parse", "resolve", "render", "patch", "write"]
to_patch = steps[:5]

def laps(path):
    got = {s: [] for s in steps}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"  (\w+): ([0-9.e+-]+) ms$", line)
        if m and m[1] in got:
            got[m[1]].append(float(m[2]))
    return {s: statistics.median(v) for s, v in got.items() if v}

medians = {"1": [], scale: []}
for r in range(1, rounds + 1):
    for book in ("1", scale):
        m = laps(f"{work}/laps-{book}-{r}")
        medians[book].append(m)
        shown = "  ".join(f"{s} {m[s]:.2f}" for s in steps if s in m)
        print(f"round {r}, {book + '×':5} {shown}  (ms, medians of the round's edits)")
total = {}
for book in ("1", scale):
    over = {s: statistics.median(m[s] for m in medians[book] if s in m) for s in steps
            if any(s in m for m in medians[book])}
    total[book] = sum(over.get(s, 0) for s in to_patch)
    shown = "  ".join(f"{s} {v:.2f}" for s, v in over.items())
    print(f"median over {rounds} rounds, {book + '×':5} {shown}; save to patch {total[book]:.2f} ms")
print(f"ratio {scale}× / 1× of the time to the patch: {total[scale] / total['1']:.2f}")
PY
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end ($(date -u '+%Y-%m-%d %H:%M UTC'))"
