// The sandboxed Lua state of a book filter: safe libraries, memory ceiling, instruction and CPU budget.
#include "bookfilters/sandbox.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <stdexcept>

#include "bookfilters/budget_guards.hpp"
#include "bookfilters/string_patterns.hpp"

namespace bb::bookfilters {

namespace {

// The hook runs every this many VM instructions: often enough to stop a loop within microseconds of
// the budget, rarely enough to cost nothing measurable.
constexpr int kHookEvery = 1000;
// The thread's CPU clock is a system call (about a microsecond here), the coarse monotonic clock a
// read of memory: the CPU clock is read when this much time has passed since it was last read.
constexpr std::int64_t kLookEveryNs = 10'000'000;

std::int64_t now_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// Libraries whose every function is harmless: they compute on values and reach nothing outside.
void open_safe_libraries(lua_State* L) {
  const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
                           {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
                           {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine}};
  for (const auto& lib : libs) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  // What of base and string reads files, runs code from files or bytes, or reaches the collector.
  for (const char* name : {"dofile", "loadfile", "load", "collectgarbage", "print"}) {
    lua_pushnil(L);
    lua_setglobal(L, name);
  }
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  install_bounded_patterns(L, -1);
  lua_pop(L, 1);
  install_budget_guards(L);
  // Lua 5.4 seeds math.random from the clock: the same book must give the same output.
  lua_getglobal(L, LUA_MATHLIBNAME);
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  // Strings' methods are the state's own `string` table, shared by every chapter: a filter must not
  // reach it (through getmetatable("").__index) to change it for the chapters after its own.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
}

// A table's entries in a new table (the libraries' tables hold only functions and numbers).
void push_copy(lua_State* L, int from) {
  from = lua_absindex(L, from);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, from)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

}  // namespace

std::string lua_place(lua_State* L) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); ++level) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || ar.source[0] != '@') continue;
    return std::string(ar.source + 1) + ":" + std::to_string(ar.currentline);
  }
  return {};
}

void Sandbox::new_environment(lua_State* L) {
  lua_pushglobaltable(L);
  const int globals = lua_gettop(L);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, globals)) {
    lua_pushvalue(L, -2);  // key
    if (lua_rawequal(L, -2, globals))
      lua_pushvalue(L, globals + 1);  // _G is the environment itself
    else if (lua_istable(L, -2))
      push_copy(L, -2);  // string, table, math, utf8, coroutine: changes stay in this chapter
    else
      lua_pushvalue(L, -2);
    lua_rawset(L, globals + 1);
    lua_pop(L, 1);
  }
  lua_remove(L, globals);
}

void* Sandbox::allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) {
  auto* self = static_cast<Sandbox*>(ud);
  const std::size_t old_bytes = ptr ? old_size : 0;
  if (new_size == 0) {
    self->release(ptr, old_bytes);
    self->used_ -= old_bytes;
    return nullptr;
  }
  if (new_size > old_bytes && self->used_ - old_bytes + new_size > self->limits_.memory) {
    // Lua raises a memory error without calling the message handler: note where the code was now.
    // (Lua first collects garbage and asks again: the last refusal in the filter's code is the one that
    // counts. A refusal once the stack has unwound to C, making the error's message, names no line.)
    if (self->L_)
      if (std::string at = lua_place(self->L_); !at.empty()) self->refused_at_ = std::move(at);
    self->refused_ = true;
    return nullptr;
  }
  void* p = self->move_block(ptr, old_bytes, new_size);
  if (p) self->used_ = self->used_ - old_bytes + new_size;
  return p;
}

void Sandbox::release(void* ptr, std::size_t bytes) {
  if (!ptr) return;
  if (bytes <= SmallBlocks::kLargest)
    small_.give(ptr, bytes);
  else
    std::free(ptr);
}

// A block of `new_size` bytes holding what `ptr` (`old_bytes`, 0 for none) held: blocks up to
// SmallBlocks::kLargest come from the free lists, larger ones from malloc.
void* Sandbox::move_block(void* ptr, std::size_t old_bytes, std::size_t new_size) {
  constexpr std::size_t kSmall = SmallBlocks::kLargest;
  if (old_bytes > kSmall && new_size > kSmall) return std::realloc(ptr, new_size);
  if (ptr && old_bytes <= kSmall && new_size <= kSmall && (old_bytes - 1) / 16 == (new_size - 1) / 16)
    return ptr;  // the same size class
  void* p = new_size <= kSmall ? small_.take(new_size) : std::malloc(new_size);
  if (!p) {
    // Lua counts on a block's shrinking never failing; a small block is already big enough.
    if (ptr && new_size <= old_bytes && old_bytes <= kSmall) return ptr;
    if (ptr && new_size <= old_bytes) std::abort();  // out of memory while shrinking: nothing left to do
    return nullptr;
  }
  if (ptr) {
    std::memcpy(p, ptr, old_bytes < new_size ? old_bytes : new_size);
    release(ptr, old_bytes);
  }
  return p;
}

void Sandbox::count_hook(lua_State* L, lua_Debug*) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  static_cast<Sandbox*>(ud)->spend(L, kHookEvery);
}

void Sandbox::charge(lua_State* L, std::uint64_t work) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  static_cast<Sandbox*>(ud)->spend(L, work);
}

void Sandbox::check_budget(lua_State* L) {
  charge(L, 0);
}

bool Sandbox::over_cpu_time() {
  const std::int64_t now = now_ns(CLOCK_MONOTONIC_COARSE);
  if (now - last_look_ns_ < kLookEveryNs) return false;
  last_look_ns_ = now;
  const auto used = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start_ns_;
  return used > static_cast<std::int64_t>(limits_.cpu_ms) * 1'000'000;
}

void Sandbox::spend(lua_State* L, std::uint64_t work) {
  if (!exhausted_) {
    counted_ = work > limits_.instructions - std::min(counted_, limits_.instructions)
                   ? limits_.instructions + 1
                   : counted_ + work;
    if (counted_ <= limits_.instructions && !over_cpu_time()) return;
    out_of_time_ = counted_ <= limits_.instructions;
    exhausted_ = true;
    exhausted_at_ = lua_place(L);
    if (L != L_) lua_sethook(L_, &Sandbox::count_hook, LUA_MASKCOUNT, 1);
  }
  raise_spent(L);
}

// From now on the hook runs before every instruction of this thread and raises again: code that
// caught the error (pcall, xpcall, a coroutine's resume) cannot run one instruction more.
void Sandbox::raise_spent(lua_State* L) {
  lua_sethook(L, &Sandbox::count_hook, LUA_MASKCOUNT, 1);
  char text[160];
  {
    const std::string message = budget_message();  // destroyed before luaL_error jumps away
    std::snprintf(text, sizeof text, "%s", message.c_str());
  }
  luaL_error(L, "%s", text);
  std::abort();  // luaL_error does not return
}

std::string Sandbox::budget_message() const {
  if (out_of_time_)
    return "the filter ran past its budget of " + std::to_string(limits_.cpu_ms / 1000) + "." +
           std::to_string(limits_.cpu_ms % 1000 / 100) + " s of CPU time";
  return "the filter ran past its budget of " + std::to_string(limits_.instructions / 1'000'000) +
         " million instructions (an endless loop?)";
}

void Sandbox::start_chapter() {
  counted_ = 0;
  exhausted_ = false;
  out_of_time_ = false;
  exhausted_at_.clear();
  cpu_start_ns_ = now_ns(CLOCK_THREAD_CPUTIME_ID);
  last_look_ns_ = now_ns(CLOCK_MONOTONIC_COARSE);
  lua_sethook(L_, &Sandbox::count_hook, LUA_MASKCOUNT, kHookEvery);
  clear_error();
}

Sandbox::Sandbox(Limits limits) : limits_(limits) {
  L_ = lua_newstate(&Sandbox::allocate, this);
  if (!L_) throw std::runtime_error("cannot create a Lua state");
  open_safe_libraries(L_);
  start_chapter();
}

Sandbox::~Sandbox() {
  if (L_) lua_close(L_);
}

}  // namespace bb::bookfilters
