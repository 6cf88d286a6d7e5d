// The heap's setup at start-up (cli/allocator.cpp): one arena, large blocks from the heap, the heap
// marked for transparent huge pages, the pages below its first huge-page boundary populated at once.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/allocator.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

// The flags of the mapping that contains `p`, from /proc/self/smaps ("" when not found).
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  auto at = reinterpret_cast<unsigned long>(p);
  while (std::getline(smaps, line)) {
    unsigned long from = 0;
    unsigned long to = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &from, &to) == 2 && line.find(' ') > line.find('-')) {
      inside = from <= at && at < to;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// glibc's malloc_info(3): one <heap nr="..."> element per arena.
int arenas() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  std::string xml(text, size);
  std::free(text);
  int n = 0;
  for (std::size_t at = xml.find("<heap nr="); at != std::string::npos; at = xml.find("<heap nr=", at + 1))
    ++n;
  return n;
}

TEST(Allocator, OneArenaLargeBlocksFromTheHeapAndHugePages) {
  cli::HeapSetup heap = cli::tune_allocator();
  if (!heap.tuned) GTEST_SKIP() << "the sanitizers' allocator (or BOOKBUILD_DEFAULT_MALLOC) is in use";

  // A thread's allocations come from the one arena instead of a new one.
  std::thread([] {
    void* volatile block = std::malloc(1000);
    std::free(block);
  }).join();
  EXPECT_EQ(arenas(), 1);

  // A 4 MiB block (over glibc's default 128 KiB mmap threshold) is carved from the heap, not mmap'd.
  struct mallinfo2 before = mallinfo2();
  void* volatile big = std::malloc(std::size_t{4} << 20);
  struct mallinfo2 during = mallinfo2();
  std::free(big);
  EXPECT_EQ(during.hblks, before.hblks);

  if (heap.advised_size == 0) GTEST_SKIP() << "the kernel has no transparent huge pages";
  EXPECT_GE(heap.advised_size, std::size_t{32} << 20);
  EXPECT_NE(vm_flags_of(heap.advised).find(" hg"), std::string::npos) << vm_flags_of(heap.advised);
  // Once per process.
  EXPECT_EQ(cli::tune_allocator().advised, heap.advised);

  // The 4 KiB pages below the first huge-page boundary were populated at once: all resident.
  if (heap.populated_size == 0) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (before 5.14)";
  EXPECT_LE(heap.populated_size, std::size_t{2} << 20);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(heap.populated_size % page, 0u);
  std::vector<unsigned char> resident(heap.populated_size / page);
  ASSERT_EQ(mincore(heap.advised - heap.populated_size, heap.populated_size, resident.data()), 0);
  std::size_t missing = 0;
  for (unsigned char r : resident) missing += !(r & 1);
  EXPECT_EQ(missing, 0u) << "of " << resident.size() << " pages";
}

// A big book's heap outgrows the first 64 MiB (the 100x book's check holds ~280 MB): what malloc hands
// out beyond it is still in the range marked for huge pages, not in 4 KiB pages faulted one by one. The
// blocks are not touched, so the test costs address space only.
TEST(Allocator, AHeapPastItsFirst64MiBIsStillMarkedForHugePages) {
  cli::HeapSetup heap = cli::tune_allocator();
  if (!heap.tuned) GTEST_SKIP() << "the sanitizers' allocator (or BOOKBUILD_DEFAULT_MALLOC) is in use";
  if (heap.advised_size == 0) GTEST_SKIP() << "the kernel has no transparent huge pages";
  std::vector<void*> blocks;
  for (int i = 0; i < 6; ++i)
    blocks.push_back(std::malloc(std::size_t{32} << 20));  // under the mmap threshold
  auto* last = static_cast<char*>(blocks.back());
  EXPECT_GE(last, heap.advised + (std::size_t{128} << 20))
      << "the blocks come from the heap, one after another";
  EXPECT_LT(last + (std::size_t{32} << 20), heap.advised + heap.advised_size);
  EXPECT_NE(vm_flags_of(last).find(" hg"), std::string::npos) << vm_flags_of(last);
  for (void* b : blocks) std::free(b);
}

// A build sets its heap up; the dev server, which lives for hours with the whole book in memory, keeps
// glibc's defaults (with the set-up, an edit of a 100× book took 2–5 times as long). The executable
// says which under BOOKBUILD_TIMINGS, once the command line is parsed.
TEST(Allocator, BuildsSetTheHeapUpAndTheDevServerKeepsGlibcsDefaults) {
  test::TempDir out("bb-heap");
  const std::string book =
      "--book '" + (test::fixtures() / "books" / "mini").string() + "' --out '" + out.path.string() + "'";
  auto check = test::run_command("env BOOKBUILD_TIMINGS=1 '" BOOKBUILD_EXE "' " + book + " check");
  EXPECT_EQ(check.exit_code, 0) << check.err;
  if (cli::tune_allocator().tuned) {  // not under the sanitizers, whose allocator is their own
    EXPECT_NE(check.err.find("heap: set up for a short run"), std::string::npos) << check.err;
  }
  // The server stops after a second; the heap is set up (or not) before anything is built.
  auto serve = test::run_command("timeout 1 env BOOKBUILD_TIMINGS=1 '" BOOKBUILD_EXE "' " + book +
                                 " site --serve --port 18999");
  EXPECT_NE(serve.err.find("heap: glibc's defaults"), std::string::npos) << serve.err;
  EXPECT_EQ(serve.err.find("heap: set up"), std::string::npos) << serve.err;
}

}  // namespace
}  // namespace bb
