// The sandbox's bounded pattern functions (builder/bookfilters/string_patterns.cpp) against the
// standard library's, in one state: patterns/compare.lua runs both on the same cases and lists every
// difference in results, captures or error messages.
#include <gtest/gtest.h>

#include <lua.hpp>

#include "bookfilters/sandbox.hpp"

namespace bb {
namespace {

TEST(BoundedPatterns, GiveTheStandardLibrarysResults) {
  bookfilters::Sandbox sandbox;
  lua_State* L = sandbox.state();
  lua_pushcfunction(L, luaopen_string);  // a second, standard string library, for comparison
  lua_call(L, 0, 1);
  lua_setglobal(L, "standard");
  const std::string script = std::string(BOOKFILTERS_PATTERNS) + "/compare.lua";
  ASSERT_EQ(luaL_loadfilex(L, script.c_str(), "t"), LUA_OK) << lua_tostring(L, -1);
  ASSERT_EQ(lua_pcall(L, 0, 2, 0), LUA_OK) << lua_tostring(L, -1);
  const lua_Integer compared = lua_tointeger(L, -2);
  EXPECT_GT(compared, 50'000) << "compare.lua ran fewer cases than it has";
  EXPECT_STREQ(lua_tostring(L, -1), "") << "after " << compared << " comparisons";
}

// Within the budget, a search that backtracks much still ends with the standard result.
TEST(BoundedPatterns, AMatchWithinTheBudgetEndsAsTheStandardOne) {
  bookfilters::Sandbox sandbox;
  lua_State* L = sandbox.state();
  const char* code = "return (('a'):rep(300) .. 'b'):find('.-.-.-b')";
  ASSERT_EQ(luaL_loadstring(L, code), LUA_OK);
  ASSERT_EQ(lua_pcall(L, 0, 2, 0), LUA_OK) << lua_tostring(L, -1);
  EXPECT_EQ(lua_tointeger(L, -2), 1);
  EXPECT_EQ(lua_tointeger(L, -1), 301);
}

}  // namespace
}  // namespace bb
