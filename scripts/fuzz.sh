#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/: clang with ASan + UBSan, in their own build folder) and runs
# each for SECONDS (default 60) on its seeds: the small seeds committed in fuzz/corpus/<harness>/, seeds
# cut at run time from tests/fixtures and, when present, ../shared/corpus (never copied into the
# repository), and the corpus earlier runs grew in the build folder. Each regression in
# fuzz/regressions/<harness>/ (a crash found and fixed) is replayed first; fuzz/regressions/<harness>/open/
# holds reproducers of known unfixed crashes, replayed only with FUZZ_OPEN=1.
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS...]    (harnesses: markdown math config calc search epub_check
#        serve_request highlight_cache parse_store filtered_store book_filters; default all)
# Environment: FUZZ_BUILD (build folder, default build-fuzz), FUZZ_JOBS (build jobs, default 2),
#        FUZZ_NICE (nice level of the runs, default 0; use 19 for long runs on a shared machine),
#        FUZZ_SKIP_BUILD=1 (run what is built), FUZZ_TIMEOUT (seconds one input may take, default 30;
#        raise it for niced runs on a busy machine, where a starved process trips it falsely).
# Prints one line per harness: seconds, executions, corpus size, result; exits non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
all=(markdown math config calc search epub_check serve_request highlight_cache parse_store filtered_store book_filters)
harnesses=("$@")
((${#harnesses[@]})) || harnesses=("${all[@]}")
build="${FUZZ_BUILD:-build-fuzz}"
jobs="${FUZZ_JOBS:-2}"
nice_level="${FUZZ_NICE:-0}"

command -v clang++ >/dev/null || { echo "clang++ is not installed (scripts/install-deps.sh --test)"; exit 1; }
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOOKBUILD_FUZZ=ON \
    -DBOOKBUILD_TESTS=OFF >/dev/null
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
[[ "${FUZZ_SKIP_BUILD:-0}" == 1 ]] || cmake --build "$build" --target "${targets[@]}" -j"$jobs"

# Seeds cut from the fixtures and the corpus into the working corpus (not the repository).
work="$build/corpus"
shared="../shared/corpus"
seed() {  # seed HARNESS NAME: stdin becomes one seed file
  mkdir -p "$work/$1"
  cat >"$work/$1/$2"
}
chapters() { find tests/fixtures tests/epub/fixtures "$shared" -name '*.md' 2>/dev/null | sort; }
for h in "${harnesses[@]}"; do
  [[ -d "$work/$h" ]] && continue  # seeded on the first run; later runs continue the grown corpus
  mkdir -p "$work/$h"
  n=0
  case "$h" in
    markdown | search | parse_store | filtered_store)
      # Pieces of about 4 KiB cut at blank lines: small inputs keep executions fast.
      while IFS= read -r f; do
        awk -v dir="$work/$h" -v base="$((n += 1000))" 'BEGIN { RS = ""; ORS = "\n\n" }
          { buf = buf $0 ORS } length(buf) > 4096 { print buf > (dir "/" base "-" i++); buf = "" }
          END { if (buf != "") print buf > (dir "/" base "-" i) }' "$f"
      done < <(chapters)
      ;;
    math)
      chapters | xargs -r cat | grep -oE '\$\$[^$]+\$\$|\$[^$]+\$' | tr -d '$' | sort -u | head -2000 |
        while IFS= read -r formula; do
          n=$((n + 1))
          printf '%s' "$formula" | seed math "f$n"
        done
      ;;
    calc)
      { chapters | xargs -r cat | grep -oE '\{\{[^}]*\}\}' | sed 's/^{{//; s/}}$//'
        chapters | xargs -r cat | grep -oE 'calc=[^} ]+' | sed 's/^calc=//'; } | sort -u | head -500 |
        while IFS= read -r p; do
          n=$((n + 1))
          printf '%s' "$p" | seed calc "p$n"
        done
      ;;
    book_filters)
      # Each filter case of tests/bookfilters with its chapter, and this book's own filters alone.
      for f in tests/bookfilters/cases/*.lua; do
        { cat "$f"; printf '\n--[[markdown]]\n'; cat "${f%.lua}.md"; } | seed book_filters "$(basename "$f" .lua)"
      done
      for f in filters/*.lua; do seed book_filters "book-$(basename "$f" .lua)" <"$f"; done
      ;;
    config)
      find tests -name book.toml | while IFS= read -r f; do seed config "t$((n += 1))" <"$f"; done
      ;;
  esac
done

status=0
summary="$build/fuzz-summary.txt"
for h in "${harnesses[@]}"; do
  exe="$build/fuzz/fuzz_$h"
  findings="$build/findings/$h"
  mkdir -p "$findings"
  regressions=()
  if [[ -d "fuzz/regressions/$h" ]]; then
    while IFS= read -r f; do
      [[ "$f" == */open/* && "${FUZZ_OPEN:-0}" != 1 ]] || regressions+=("$f")
    done < <(find "fuzz/regressions/$h" -type f ! -name 'README*' | sort)
  fi
  if ((${#regressions[@]})); then
    "$exe" -timeout=30 -rss_limit_mb=2048 "${regressions[@]}" >"$build/$h-regressions.log" 2>&1 ||
      { echo "$h: a regression fails again (see $build/$h-regressions.log)"; status=1; }
  fi
  seeds=("$work/$h")
  [[ -d "fuzz/corpus/$h" ]] && seeds+=("fuzz/corpus/$h")
  log="$build/$h.log"
  result=ok
  start="$(date +%s)"
  nice -n "$nice_level" "$exe" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$findings/" "${seeds[@]}" >"$log" 2>&1 || result="FINDING"
  # The final stats; after a crash, the last status line's count.
  runs="$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
  [[ -n "$runs" ]] || runs="$(grep -aoE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)"
  took="$(($(date +%s) - start))"
  size="$(find "$work/$h" -type f | wc -l)"
  line="$(printf '%-14s %6ss %10s executions  corpus %6s  %s' "$h" "$took" "$runs" "$size" "$result")"
  echo "$line"
  echo "$(date -u +%FT%TZ) $line" >>"$summary"
  if [[ "$result" != ok ]]; then
    status=1
    echo "  see $log; the input is in $findings/"
    grep -a -m3 -E 'ERROR: |SUMMARY: |runtime error' "$log" | sed 's/^/  /' || true
  fi
done
exit "$status"
