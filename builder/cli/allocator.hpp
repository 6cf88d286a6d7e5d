// How the process's heap is set up before any work: fewer, larger page faults (see allocator.cpp).
#pragma once

#include <cstddef>

namespace bb::cli {

// What tune_allocator did, for tests and BOOKBUILD_TIMINGS.
struct HeapSetup {
  bool tuned = false;              // false under the sanitizers (their allocator is their own) and with
                                   // BOOKBUILD_DEFAULT_MALLOC=1
  char* advised = nullptr;         // start of the heap range marked for transparent huge pages
  std::size_t advised_size = 0;    // its length (0 when the kernel refused or the heap could not grow)
  std::size_t populated_size = 0;  // the 4 KiB pages below `advised` populated at once (0: refused)
};

// Called once the command line is parsed, before the command runs (cli/app.cpp), for every command
// but the dev server (`site --serve`), which keeps glibc's defaults. One heap (arena) for every thread,
// memory kept by the process instead of being handed back and faulted in again, and the heap's first
// 512 MiB of address space (grown at once, touched only as used) marked for transparent huge pages. Once per
// process; later calls return the first call's result.
HeapSetup tune_allocator();

}  // namespace bb::cli
