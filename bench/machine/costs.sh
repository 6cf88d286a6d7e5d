#!/usr/bin/env bash
# What this machine charges for the things a short build run cannot avoid, so that a job's time can be
# read against its floor: a stat(2), a page fault (4 KiB, and a 2 MiB transparent huge page), and
# starting a process — an empty C program, a C++ "hello" on the shared libstdc++, and `bookbuild
# --version` (the ratio of the last two is start-up bookbuild adds to any C++ program). Issue 49 asks a
# job to be 50× its peer; where the peer takes 0.5 s that is 10 ms, and these figures say how much of
# it is spent before any book is read. Not a test.
# Usage: bench/machine/costs.sh [BOOKBUILD]   (RUNS=30 process starts by default; needs cc and c++)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
bookbuild="$(realpath "${1:-$here/build-release/builder/bookbuild}")"
runs="${RUNS:-30}"
source "$here/bench/lib.sh"
[[ -x "$bookbuild" ]] || fail "no bookbuild at $bookbuild (scripts/build.sh first)"
for tool in cc c++; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cat >"$out/costs.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
int main(int argc, char** argv) {
  struct stat st;
  const int n = 100000;
  double t = now_us();
  for (int i = 0; i < n; i++) fstatat(AT_FDCWD, argv[1], &st, 0);
  printf("stat of an existing file: %.2f us\n", (now_us() - t) / n);
  t = now_us();
  for (int i = 0; i < n; i++) fstatat(AT_FDCWD, argv[2], &st, 0);
  printf("stat of a missing file: %.2f us\n", (now_us() - t) / n);
  // Two rounds: on a virtual machine whose host backs guest memory lazily (and takes freed memory
  // back), memory the guest recycled from an earlier process is cheap to fault in and fresh memory
  // is not; the second round touches memory beyond what the first did.
  const size_t pages = 8192, page = 4096, huge = 2u << 20;
  for (int round = 1; round <= 2; round++) {
    char* q = mmap(0, 34u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) return 1;
    q = (char*)(((uintptr_t)q + huge - 1) & ~(uintptr_t)(huge - 1));
    if (madvise(q, 32u << 20, MADV_HUGEPAGE) == 0) {
      t = now_us();
      for (size_t i = 0; i < 16; i++) q[i * huge] = 1;
      printf("round %d: page fault, 2 MiB huge page: %.0f us\n", round, (now_us() - t) / 16);
    } else {
      printf("round %d: page fault, 2 MiB huge page: (no transparent huge pages here)\n", round);
    }
    char* p = mmap(0, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    madvise(p, pages * page, MADV_NOHUGEPAGE);
    t = now_us();
    for (size_t i = 0; i < pages; i++) p[i * page] = 1;
    printf("round %d: page fault, 4 KiB: %.2f us\n", round, (now_us() - t) / pages);
  }
  return 0;
}
C
printf 'int main(void) { return 0; }\n' >"$out/empty.c"
printf '#include <iostream>\nint main() { std::cout << "hello\\n"; }\n' >"$out/hello.cpp"
cc -O2 -o "$out/costs" "$out/costs.c" || fail "compiling the probe"
cc -O2 -o "$out/empty" "$out/empty.c" || fail "compiling the empty program"
c++ -O2 -o "$out/hello" "$out/hello.cpp" || fail "compiling the C++ hello"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$out/costs" "$bookbuild" "$out/missing/file" || fail "the probe"

# CPU (user + system, from wait4) of one start of each program, interleaved, medians of RUNS.
declare -A cpu
for ((r = 0; r < runs; r++)); do
  for prog in empty hello bookbuild; do
    case "$prog" in
      bookbuild) line="$(measure "$bookbuild" --version)" || fail "bookbuild --version" ;;
      *) line="$(measure "$out/$prog")" || fail "$prog" ;;
    esac
    cpu[$prog]+="$(awk '{ print $3 }' <<<"$line")"$'\n'
  done
done
med() { printf '%s' "${cpu[$1]}" | awk 'NF' | median; }
e="$(med empty)" h="$(med hello)" b="$(med bookbuild)"
awk -v e="$e" -v h="$h" -v b="$b" -v n="$runs" 'BEGIN {
  printf "process start, CPU (median of %d): empty C %.1f ms, C++ hello %.1f ms, bookbuild --version %.1f ms\n", n, e * 1000, h * 1000, b * 1000
  printf "bookbuild --version / C++ hello: %.2f×\n", (h > 0 ? b / h : 0) }'
