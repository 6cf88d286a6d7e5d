// The budgeted allocator of one parse (see parse_memory.hpp). cmark_mem carries no context, so a new
// block finds its ParseMemory through the thread's current one and a block being resized or freed
// through its header. Leaving the parse by longjmp is sound here: between the setjmp in parse() and
// the allocator there are only cmark-gfm's C frames (the C++ math extension holds a NoJump while it
// allocates), and the process-wide table of special characters that cmark-gfm fills while it parses
// inlines is emptied again as cmark_parser_finish would.
#include "markdown/parse_memory.hpp"

#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace bb::markdown {

namespace {
thread_local ParseMemory* current = nullptr;
}  // namespace

struct alignas(alignof(std::max_align_t)) ParseMemory::Block {
  Block* prev;
  Block* next;
  std::size_t size;
  ParseMemory* owner;
};

ParseMemory::ParseMemory(std::size_t budget) : budget_(budget), previous_(current) {
  current = this;
}

ParseMemory::~ParseMemory() {
  for (Block* b = head_; b != nullptr;) {
    Block* next = b->next;
    std::free(b);
    b = next;
  }
  current = previous_;
}

cmark_mem* ParseMemory::mem() {
  static cmark_mem allocator{&ParseMemory::allocate, &ParseMemory::reallocate, &ParseMemory::release};
  return &allocator;
}

cmark_mem* ParseMemory::current_mem() {
  return current != nullptr ? current->mem() : cmark_get_default_mem_allocator();
}

ParseMemory::NoJump::NoJump() {
  if (current != nullptr) ++current->no_jump_;
}

ParseMemory::NoJump::~NoJump() {
  if (current != nullptr) --current->no_jump_;
}

void ParseMemory::link(Block* block) {
  block->owner = this;
  block->prev = nullptr;
  block->next = head_;
  if (head_ != nullptr) head_->prev = block;
  head_ = block;
}

void ParseMemory::unlink(Block* block) {
  if (block->prev != nullptr) block->prev->next = block->next;
  if (block->next != nullptr) block->next->prev = block->prev;
  if (head_ == block) head_ = block->next;
}

// Counts a block growing from old_size to new_size; over the budget (or out of memory) inside parse()
// leaves the parse, unless a NoJump is alive, which only marks it.
void ParseMemory::charge(std::size_t old_size, std::size_t new_size) {
  const bool over = used_ - old_size + new_size > budget_;
  if (armed_ && (over || exhausted_)) {
    if (no_jump_ == 0) std::longjmp(jump_, 1);
    exhausted_ = true;
  }
  used_ = used_ - old_size + new_size;
  if (used_ > peak_) peak_ = used_;
}

void* ParseMemory::allocate(std::size_t count, std::size_t size) {
  ParseMemory* self = current;
  if (self == nullptr) std::abort();  // a cmark object outlived its ParseMemory: a bug of this file
  if (size != 0 && count > (std::numeric_limits<std::size_t>::max() - sizeof(Block)) / size)
    std::abort();  // cmark-gfm aborts on a failed allocation too
  const std::size_t bytes = count * size;
  self->charge(0, bytes);
  auto* block = static_cast<Block*>(std::calloc(1, sizeof(Block) + bytes));
  if (block == nullptr) {
    if (self->armed_ && self->no_jump_ == 0) std::longjmp(self->jump_, 1);
    std::abort();
  }
  block->size = bytes;
  self->link(block);
  return block + 1;
}

void* ParseMemory::reallocate(void* p, std::size_t size) {
  if (p == nullptr) return allocate(1, size);
  Block* block = static_cast<Block*>(p) - 1;
  ParseMemory* self = block->owner;
  if (size > std::numeric_limits<std::size_t>::max() - sizeof(Block)) std::abort();
  self->charge(block->size, size);
  self->unlink(block);
  auto* moved = static_cast<Block*>(std::realloc(block, sizeof(Block) + size));
  if (moved == nullptr) {
    self->link(block);
    if (self->armed_ && self->no_jump_ == 0) std::longjmp(self->jump_, 1);
    std::abort();
  }
  moved->size = size;
  self->link(moved);
  return moved + 1;
}

void ParseMemory::release(void* p) {
  if (p == nullptr) return;
  Block* block = static_cast<Block*>(p) - 1;
  ParseMemory* self = block->owner;
  self->unlink(block);
  self->used_ -= block->size;
  std::free(block);
}

cmark_node* ParseMemory::parse(cmark_parser* parser, std::string_view text) {
  armed_ = true;
  if (setjmp(jump_) != 0) {
    armed_ = false;
    cmark_manage_extensions_special_characters(parser, 0);
    return nullptr;
  }
  cmark_parser_feed(parser, text.data(), text.size());
  cmark_node* root = cmark_parser_finish(parser);
  armed_ = false;
  return exhausted_ ? nullptr : root;
}

}  // namespace bb::markdown
