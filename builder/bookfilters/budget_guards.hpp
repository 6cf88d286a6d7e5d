// The library functions of the filter sandbox that could outlast the budget without running a Lua
// instruction under the hook: handlers and finalizers (which Lua runs with its hooks off), coroutines (a
// thread that catches the budget's error could start another) and the table functions whose loop in C is as
// long as a number the filter chooses (docs/filters.md, "Safety").
#pragma once

struct lua_State;

namespace bb::bookfilters {

// Wraps, in the state's library tables: xpcall (its message handler is not called once the budget is
// spent: it would run without the hook), setmetatable (refuses `__gc`: Lua runs finalizers without
// hooks); coroutine.create, wrap and resume (refused once the budget is
// spent: no new thread, no thread resumed); table.move and table.concat (the count of elements they
// are asked to visit is charged to the budget first), and table.insert, remove and sort on a table
// whose length comes from a `__len` metamethod (that length is charged first).
void install_budget_guards(lua_State* L);

}  // namespace bb::bookfilters
