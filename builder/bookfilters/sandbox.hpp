// The Lua state a book filter runs in: only the safe parts of the standard library, a memory ceiling
// enforced by the allocator, and a budget of instructions and CPU time that no Lua code can catch
// (docs/filters.md, "Safety").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bookfilters/small_blocks.hpp"

struct lua_State;
struct lua_Debug;

namespace bb::bookfilters {

struct Limits {
  std::size_t memory = 64u << 20;            // bytes one state may hold at once
  std::uint64_t instructions = 200'000'000;  // Lua VM instructions (and pattern steps) per chapter and filter
  std::uint64_t cpu_ms = 5'000;              // CPU time per chapter and filter, in milliseconds
  bool operator==(const Limits&) const = default;
};

// Owns one lua_State, reused for many chapters: each chapter gets a fresh global table of its own
// (`new_environment`), so nothing a filter leaves in one chapter is seen in the next. Books are untrusted (a
// pull request from a stranger): the state has no `io`, `os`, `package`, `require`, `debug`, `dofile`,
// `loadfile`, `load` or `string.dump`, so a filter can read nothing but the tree it is given and write
// nothing but the tree it returns.
class Sandbox {
 public:
  explicit Sandbox(Limits limits = {});
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  [[nodiscard]] lua_State* state() const { return L_; }
  // Pushes a fresh global table: copies of the safe libraries' functions and tables, as a new state
  // would hold them. Call inside a protected call only (it allocates).
  static void new_environment(lua_State* L);
  [[nodiscard]] const Limits& limits() const { return limits_; }
  // Whether the last error was the allocator refusing memory over the ceiling, and where the Lua
  // code then running was ("filters/x.lua:12", or empty when no Lua function was running).
  [[nodiscard]] bool out_of_memory() const { return refused_; }
  [[nodiscard]] const std::string& refused_at() const { return refused_at_; }
  void clear_error() {
    refused_ = false;
    refused_at_.clear();
  }
  // Whether the budget ran out in this chapter, where ("filters/x.lua:12"), and what ran out. Once it
  // has, every Lua instruction on every thread of the state raises again and no coroutine can be
  // created or resumed, so `pcall`, `xpcall`, error handlers and coroutines cannot go on: the run
  // fails whatever the filter's Lua code returns.
  [[nodiscard]] bool exhausted() const { return exhausted_; }
  [[nodiscard]] const std::string& exhausted_at() const { return exhausted_at_; }
  [[nodiscard]] std::string budget_message() const;
  // A state is reused for chapter after chapter (run.cpp's pool): each chapter has the whole budget.
  void start_chapter();
  // Counts `work` steps done inside C (a pattern match) against the instruction budget of the state
  // `L` belongs to; raises the budget's error when it is spent.
  static void charge(lua_State* L, std::uint64_t work);
  // Raises the budget's error if it is spent (for the library functions that start new work).
  static void check_budget(lua_State* L);

 private:
  static void* allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size);
  void* move_block(void* ptr, std::size_t old_bytes, std::size_t new_size);
  void release(void* ptr, std::size_t bytes);
  static void count_hook(lua_State* L, lua_Debug* ar);
  void spend(lua_State* L, std::uint64_t work);
  [[noreturn]] void raise_spent(lua_State* L);
  bool over_cpu_time();

  Limits limits_;
  SmallBlocks small_;  // outlives lua_close in the destructor, which frees into it
  std::size_t used_ = 0;
  std::uint64_t counted_ = 0;
  bool exhausted_ = false;
  bool out_of_time_ = false;  // the CPU time ran out (else the instructions)
  std::string exhausted_at_;
  std::int64_t cpu_start_ns_ = 0;  // the thread's CPU clock when the chapter started
  std::int64_t last_look_ns_ = 0;  // the coarse monotonic clock when the CPU clock was last read
  bool refused_ = false;
  std::string refused_at_;
  lua_State* L_ = nullptr;
};

// "filters/x.lua:12": the innermost Lua function running in `L`, or empty.
std::string lua_place(lua_State* L);

}  // namespace bb::bookfilters
