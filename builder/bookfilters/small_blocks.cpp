// Size-class free lists for a Lua state's small blocks (docs/benchmarks.md, "Book filters": glibc's
// malloc and free were a fifth of a filter pass).
#include "bookfilters/small_blocks.hpp"

#include <cstdlib>

namespace bb::bookfilters {

SmallBlocks::~SmallBlocks() {
  for (void* chunk : chunks_) std::free(chunk);
}

void* SmallBlocks::take(std::size_t size) {
  const std::size_t c = size_class(size);
  if (Free* block = free_[c]) {
    free_[c] = block->next;
    return block;
  }
  const std::size_t bytes = (c + 1) * kStep;
  if (static_cast<std::size_t>(end_ - next_) < bytes) {
    // The rest of the old chunk (less than one block of this class) is left unused.
    void* chunk = std::malloc(kChunk);
    if (!chunk) return nullptr;
    try {
      chunks_.push_back(chunk);
    } catch (...) {  // called from Lua's C code: nothing may be thrown through it
      std::free(chunk);
      return nullptr;
    }
    next_ = static_cast<char*>(chunk);
    end_ = next_ + kChunk;
  }
  void* block = next_;
  next_ += bytes;
  return block;
}

void SmallBlocks::give(void* block, std::size_t size) {
  const std::size_t c = size_class(size);
  auto* f = static_cast<Free*>(block);
  f->next = free_[c];
  free_[c] = f;
}

}  // namespace bb::bookfilters
