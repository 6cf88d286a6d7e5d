// cmark-gfm's memory for one manuscript, with a budget: every block cmark-gfm allocates for the parse
// goes through this allocator, which keeps it on a list (the whole parse is freed at once) and stops
// the parse when the budget is spent, so that input dense in elements cannot make cmark-gfm build a
// tree many times the size of the file before anything can be counted.
#pragma once

#include <csetjmp>
#include <cstddef>
#include <string_view>

struct cmark_mem;
struct cmark_node;
struct cmark_parser;

namespace bb::markdown {

class ParseMemory {
 public:
  // Becomes the calling thread's allocator for cmark objects until destroyed; frees every block still
  // allocated when destroyed (the parser, the tree, anything cmark-gfm did not free).
  explicit ParseMemory(std::size_t budget);
  ~ParseMemory();
  ParseMemory(const ParseMemory&) = delete;
  ParseMemory& operator=(const ParseMemory&) = delete;

  cmark_mem* mem();
  // Bytes the parse held at most (headers not counted).
  std::size_t peak() const { return peak_; }
  std::size_t budget() const { return budget_; }

  // Feeds `text` to `parser` (made with mem()) and finishes it: the document, or nullptr when the
  // budget ran out, in which case the parse is abandoned (its memory is still freed with this object).
  cmark_node* parse(cmark_parser* parser, std::string_view text);

  // The allocator of the thread's current ParseMemory, or cmark-gfm's default when there is none: for
  // nodes a syntax extension makes during the parse.
  static cmark_mem* current_mem();

  // While alive, running out of budget only marks the parse (it is abandoned at the next allocation
  // outside): a syntax extension written in C++ holds objects with destructors that a jump out of
  // the allocator would skip.
  class NoJump {
   public:
    NoJump();
    ~NoJump();
    NoJump(const NoJump&) = delete;
    NoJump& operator=(const NoJump&) = delete;
  };

 private:
  struct Block;
  static void* allocate(std::size_t count, std::size_t size);
  static void* reallocate(void* p, std::size_t size);
  static void release(void* p);
  void charge(std::size_t old_size, std::size_t new_size);
  void link(Block* block);
  void unlink(Block* block);

  std::size_t budget_;
  std::size_t used_ = 0;
  std::size_t peak_ = 0;
  Block* head_ = nullptr;
  ParseMemory* previous_;
  bool armed_ = false;      // inside parse(): running out jumps back there
  bool exhausted_ = false;  // ran out while a NoJump was alive
  int no_jump_ = 0;
  std::jmp_buf jump_{};
};

}  // namespace bb::markdown
