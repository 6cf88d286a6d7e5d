// Lua's pattern functions (string.find, match, gmatch, gsub) for the filter sandbox, with the same
// results as the standard library's but every matching step counted against the filter's budget: the
// standard matcher backtracks inside C, where no instruction hook runs, so `("a"):rep(2e4):find(".-.-b")`
// would run for hours (docs/filters.md, "Safety").
#pragma once

struct lua_State;

namespace bb::bookfilters {

// Replaces find, match, gmatch and gsub in the table at `string_table` with the bounded versions.
// Plain searches (find's fourth argument, or a pattern without special characters) use memmem, which
// takes time linear in the subject and pattern.
void install_bounded_patterns(lua_State* L, int string_table);

}  // namespace bb::bookfilters
