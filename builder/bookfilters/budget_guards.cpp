// Budget guards around the coroutine and table libraries of the filter sandbox (budget_guards.hpp).
#include "bookfilters/budget_guards.hpp"

#include <cstdint>
#include <lua.hpp>

#include "bookfilters/sandbox.hpp"

namespace bb::bookfilters {

namespace {

// Calls the wrapped function (upvalue 1) with the arguments as given; returns its results.
int call_wrapped(lua_State* L) {
  const int args = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, args, LUA_MULTRET);
  return lua_gettop(L);
}

// The count of the elements first..last, charged to the budget (none when last < first).
void charge_span(lua_State* L, lua_Integer first, lua_Integer last) {
  if (last < first) return;
  const std::uint64_t span = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
  Sandbox::charge(L, span == UINT64_MAX ? span : span + 1);
}

// A length a `__len` metamethod decides is not bounded by the memory the table holds: charged.
void charge_declared_length(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE || luaL_getmetafield(L, 1, "__len") == LUA_TNIL) return;
  lua_pop(L, 1);
  charge_span(L, 1, luaL_len(L, 1));
}

int guarded_thread(lua_State* L) {
  Sandbox::check_budget(L);
  return call_wrapped(L);
}

int guarded_move(lua_State* L) {
  charge_span(L, luaL_checkinteger(L, 2), luaL_checkinteger(L, 3));
  return call_wrapped(L);
}

int guarded_concat(lua_State* L) {
  if (!lua_isnoneornil(L, 4))
    charge_span(L, luaL_optinteger(L, 3, 1), luaL_checkinteger(L, 4));
  else
    charge_declared_length(L);
  return call_wrapped(L);
}

int guarded_by_length(lua_State* L) {
  charge_declared_length(L);
  return call_wrapped(L);
}

// xpcall's message handler runs where the error was raised, and the budget's error is raised inside
// the hook, where Lua runs no hook: a handler called then could loop for ever. So once the budget is
// spent the filter's handler is not called, and the error goes on as it is.
int guarded_handler(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  if (static_cast<Sandbox*>(ud)->exhausted()) {
    lua_settop(L, 1);
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int guarded_xpcall(lua_State* L) {
  luaL_checkany(L, 2);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_handler, 1);
  lua_replace(L, 2);
  return call_wrapped(L);
}

// Lua runs a finalizer (`__gc`) with its hooks off: one that loops would never be stopped.
int guarded_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL)
      return luaL_error(L, "a filter's metatable may not have `__gc`: a finalizer runs outside the budget");
    lua_pop(L, 1);
  }
  return call_wrapped(L);
}

// Replaces `name` of the library table `library` (nullptr: a global) with `guard`, which holds the
// original as its upvalue.
void wrap(lua_State* L, const char* library, const char* name, lua_CFunction guard) {
  if (library)
    lua_getglobal(L, library);
  else
    lua_pushglobaltable(L);
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, guard, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

}  // namespace

void install_budget_guards(lua_State* L) {
  wrap(L, nullptr, "xpcall", guarded_xpcall);
  wrap(L, nullptr, "setmetatable", guarded_setmetatable);
  for (const char* name : {"create", "wrap", "resume"}) wrap(L, LUA_COLIBNAME, name, guarded_thread);
  wrap(L, LUA_TABLIBNAME, "move", guarded_move);
  wrap(L, LUA_TABLIBNAME, "concat", guarded_concat);
  for (const char* name : {"insert", "remove", "sort"}) wrap(L, LUA_TABLIBNAME, name, guarded_by_length);
}

}  // namespace bb::bookfilters
