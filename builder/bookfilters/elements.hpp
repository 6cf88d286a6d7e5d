// The document tree as Lua sees it: each doc::Node kind under a Pandoc-like element name, with
// Pandoc's field names where the concept exists (docs/filters.md, "Elements").
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "doc/tree.hpp"

struct lua_State;

namespace bb::bookfilters {

// The element name a filter function is called by: "Str", "Para", "Header", "Calc", ...
const char* element_name(doc::Kind kind);
// Every kind an element name stands for (`Math` is both InlineMath and DisplayMath).
std::vector<doc::Kind> kinds_named(std::string_view name);

// Pushes `node` (with its subtree) as an element table. Call inside a protected call only: pushing
// allocates, and a refused allocation unwinds with longjmp. The nodes' places go to `places`, so that
// an element given back unchanged keeps them (field `_place`).
void push_element(lua_State* L, const doc::Node& node, std::vector<const SourceLoc*>& places);

// What a filter function returned, read into nodes (`out`): nil → nullopt (keep the element); an
// element → one node; a list of elements → those nodes (`{}` removes the element). A malformed value
// raises a Lua error naming what is wrong. Same call rules as push_element: nothing in this reading
// owns memory on the C++ stack, so an error unwinding through it loses nothing.
// `replaced`: the kind of the element replaced (the result must be of the same sort: inline, block…).
// `loc`: the place given to new nodes (the manuscript element the function was called for).
bool read_result(lua_State* L, int index, doc::Kind replaced, const SourceLoc& loc,
                 const std::vector<const SourceLoc*>& places, std::vector<doc::Node>& out);

// The same, into the table on top of the stack.
void fill_element(lua_State* L, const doc::Node& node, std::vector<const SourceLoc*>& places);

// A whole-document hook gets its blocks as stubs: a table with only `tag`, made the whole element the
// first time a field of it is read or written. A stub given back untouched is taken back as the node
// it stands for, without converting it either way: appending a box to a chapter converts only the box.
struct Stubs {
  const std::vector<doc::Node>* blocks = nullptr;
  std::vector<const SourceLoc*>* places = nullptr;
};
// Pushes the list of stubs of `stubs.blocks` (which must outlive the call).
void push_stubs(lua_State* L, Stubs& stubs);

// The list of blocks at `index` (a whole document's `blocks`), read as read_result reads a result;
// stubs still untouched are copies of `stubs`' nodes.
void read_blocks(lua_State* L, int index, const SourceLoc& loc, const std::vector<const SourceLoc*>& places,
                 std::vector<doc::Node>& out, const std::vector<doc::Node>* stubs = nullptr);

}  // namespace bb::bookfilters
