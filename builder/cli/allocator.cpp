// The heap's setup for a short build run: glibc's defaults are made for long-lived programs that give
// memory back, which a build pays for in page faults.
//
// Why: a warm `latex --edition zh` of the real book's two chapters took ~2,000 page faults and a
// `site` ~5,000, and on the virtual machines builds run on a fault costs several microseconds
// (`perf record`: 20% of the LaTeX run under exc_page_fault). They come from three defaults:
//  - every thread that allocates gets its own arena (a fresh 64 MiB mapping grown page by page), so
//    chapters parsed on worker threads fault in memory the main thread already has;
//  - blocks over 128 KiB (a chapter's text, its node vectors, a page being written) are mmap'd and
//    unmapped on free, so each one is faulted in again, and the top of the heap is trimmed and regrown;
//  - every fault maps 4 KiB.
// With one arena, a high mmap and trim threshold, a 64 MiB top pad, and the heap (its first 512 MiB) marked
// for transparent huge pages (faulted 2 MiB at a time where the kernel allows it), the same runs took 350-550
// and 500-850 faults and 25-40% less CPU (docs/benchmarks.md). The heap's start is not aligned to a huge
// page: the part below the first boundary (up to 2 MiB, filled first) is populated in one
// madvise(MADV_POPULATE_WRITE) rather than faulted page by page. glibc's own tunables
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1:...) do the same but are read only at process start;
// mallopt(3) and madvise(2) do it from main(). Peak RSS grows by at most the last huge page in use.
// BOOKBUILD_DEFAULT_MALLOC=1 keeps glibc's defaults.
//
// Not for the dev server (`site --serve`, cli/app.cpp): it lives for hours and holds the whole book.
// On the 100× book (a 1.2 GB heap) each step of an edit took 2–5 times as long with this set-up as
// with glibc's defaults, and as long on the huge pages alone (glibc.malloc.hugetlb=1) as on the
// four mallopt settings alone (docs/benchmarks.md, tenth session).
#include "cli/allocator.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define BOOKBUILD_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BOOKBUILD_OWN_ALLOCATOR 1
#endif

namespace bb::cli {

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kHugePage = 2 * kMiB;  // x86-64 and arm64 (4 KiB base pages) PMD size
[[maybe_unused]] constexpr std::size_t kTopPad = 64 * kMiB;
// The heap's first growth, all of it marked for huge pages: a big book's `check` (the 100x book of
// bench/scale, ~280 MB) outgrew a first 64 MiB and took ~50,000 faults of 4 KiB beyond it.
[[maybe_unused]] constexpr std::size_t kReserve = 512 * kMiB;
[[maybe_unused]] constexpr std::size_t kTrimThreshold = 1024 * kMiB;  // above the reserve: never handed back

[[maybe_unused]] char* align_up(char* p) {
  auto v = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<char*>((v + kHugePage - 1) & ~(kHugePage - 1));
}
[[maybe_unused]] char* align_down(char* p) {
  auto v = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<char*>(v & ~(kHugePage - 1));
}

HeapSetup setup() {
  HeapSetup result;
#ifndef BOOKBUILD_OWN_ALLOCATOR
  // glibc's defaults, to compare (docs/benchmarks.md) or where huge pages are unwelcome.
  if (const char* keep = std::getenv("BOOKBUILD_DEFAULT_MALLOC"); keep && *keep && *keep != '0')
    return result;
  result.tuned = true;
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(64 * kMiB));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold));
  // Grow the heap now by the reserve, so that the range to advise exists: address space only, no page
  // is touched until malloc hands it out. The block goes back to the top of the heap, which the trim
  // threshold keeps; later growth is by the (smaller) top pad.
  mallopt(M_TOP_PAD, static_cast<int>(kReserve));
  auto* before = static_cast<char*>(sbrk(0));
  // (volatile: a compiler may drop a malloc whose block is only freed.)
  void* volatile block = std::malloc(kMiB);
  std::free(block);
  mallopt(M_TOP_PAD, static_cast<int>(kTopPad));
  auto* after = static_cast<char*>(sbrk(0));
  if (before != reinterpret_cast<char*>(-1) && after != reinterpret_cast<char*>(-1) && after > before) {
    char* from = align_up(before);
    char* to = align_down(after);
    // EINVAL where the kernel has no transparent huge pages: the heap then stays as it is.
    if (to > from && madvise(from, static_cast<std::size_t>(to - from), MADV_HUGEPAGE) == 0) {
      result.advised = from;
      result.advised_size = static_cast<std::size_t>(to - from);
      // Below the first huge-page boundary the heap stays in 4 KiB pages, and malloc fills it first:
      // up to 512 faults, one by one (where the heap happens to start is random). They are taken
      // in one call instead; kernels before 5.14 refuse (EINVAL) and fault them as before.
      auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
      char* head = reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(before) & ~(page - 1));
      if (from > head) {
        const bool populated = madvise(head, static_cast<std::size_t>(from - head), MADV_POPULATE_WRITE) == 0;
        result.populated_size = populated ? static_cast<std::size_t>(from - head) : 0;
      }
    }
  }
#endif
  return result;
}

}  // namespace

HeapSetup tune_allocator() {
  static const HeapSetup once = setup();
  return once;
}

}  // namespace bb::cli
