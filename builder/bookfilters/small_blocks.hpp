// The small blocks of a filter's Lua state (tables, short strings, closures): free lists by size,
// carved from large chunks, so that the many tiny allocations of a filter pass skip glibc's malloc.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace bb::bookfilters {

// Not thread-safe: one per Lua state, and a state runs on one thread. Memory handed back is kept for
// the next request of its size class until the whole object is destroyed.
class SmallBlocks {
 public:
  static constexpr std::size_t kLargest = 256;  // larger requests are not for this allocator

  SmallBlocks() = default;
  ~SmallBlocks();
  SmallBlocks(const SmallBlocks&) = delete;
  SmallBlocks& operator=(const SmallBlocks&) = delete;

  // A block of at least `size` (1..kLargest) bytes, aligned for any type; nullptr when out of memory.
  void* take(std::size_t size);
  // Returns a block `take(size)` gave, with the same `size`.
  void give(void* block, std::size_t size);

 private:
  static constexpr std::size_t kStep = 16;
  static constexpr std::size_t kChunk = std::size_t{64} << 10;
  static std::size_t size_class(std::size_t size) { return (size - 1) / kStep; }

  struct Free {
    Free* next;
  };
  std::array<Free*, kLargest / kStep> free_{};
  std::vector<void*> chunks_;
  char* next_ = nullptr;  // the unused rest of the newest chunk
  char* end_ = nullptr;
};

}  // namespace bb::bookfilters
