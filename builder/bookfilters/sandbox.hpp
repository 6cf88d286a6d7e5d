// The Lua state a book filter runs in: only the safe parts of the standard library, a memory ceiling
// enforced by the allocator and a CPU budget counted by an instruction hook (docs/filters.md, "Safety").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct lua_State;
struct lua_Debug;

namespace bb::bookfilters {

struct Limits {
  std::size_t memory = 64u << 20;            // bytes one state may hold at once
  std::uint64_t instructions = 200'000'000;  // Lua VM instructions per chapter and filter
};

// Owns one lua_State. Books are untrusted (a pull request from a stranger): the state has no `io`,
// `os`, `package`, `require`, `debug`, `dofile`, `loadfile`, `load` or `string.dump`, so a filter
// can read nothing but the tree it is given and write nothing but the tree it returns.
class Sandbox {
 public:
  explicit Sandbox(Limits limits = {});
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  [[nodiscard]] lua_State* state() const { return L_; }
  [[nodiscard]] const Limits& limits() const { return limits_; }
  // Whether the last error was the allocator refusing memory over the ceiling, and where the Lua
  // code then running was ("filters/x.lua:12", or empty when no Lua function was running).
  [[nodiscard]] bool out_of_memory() const { return refused_; }
  [[nodiscard]] const std::string& refused_at() const { return refused_at_; }
  void clear_error() {
    refused_ = false;
    refused_at_.clear();
  }

 private:
  static void* allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size);
  static void count_hook(lua_State* L, lua_Debug* ar);

  Limits limits_;
  std::size_t used_ = 0;
  std::uint64_t counted_ = 0;
  bool refused_ = false;
  std::string refused_at_;
  lua_State* L_ = nullptr;
};

// "filters/x.lua:12": the innermost Lua function running in `L`, or empty.
std::string lua_place(lua_State* L);

}  // namespace bb::bookfilters
