// The sandboxed Lua state of a book filter: safe libraries, memory ceiling, instruction budget.
#include "bookfilters/sandbox.hpp"

#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <stdexcept>

namespace bb::bookfilters {

namespace {

// The hook runs every this many VM instructions: often enough to stop a loop within microseconds of
// the budget, rarely enough to cost nothing measurable.
constexpr int kHookEvery = 1000;

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
  lua_pop(L, 1);
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
  auto* self = static_cast<Sandbox*>(ud);
  self->counted_ += kHookEvery;
  if (self->counted_ > self->limits_.instructions)
    luaL_error(L, "the filter ran past its budget of %d million instructions (an endless loop?)",
               static_cast<int>(self->limits_.instructions / 1'000'000));
}

Sandbox::Sandbox(Limits limits) : limits_(limits) {
  L_ = lua_newstate(&Sandbox::allocate, this);
  if (!L_) throw std::runtime_error("cannot create a Lua state");
  open_safe_libraries(L_);
  lua_sethook(L_, &Sandbox::count_hook, LUA_MASKCOUNT, kHookEvery);
}

Sandbox::~Sandbox() {
  if (L_) lua_close(L_);
}

}  // namespace bb::bookfilters
