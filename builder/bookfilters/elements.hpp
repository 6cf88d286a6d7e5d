// The document tree as Lua sees it: each doc::Node kind under a Pandoc-like element name, with
// Pandoc's field names where the concept exists (docs/filters.md, "Elements").
#pragma once

#include <filesystem>
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

// What pushing elements keeps for reading them back, for one filter's run over one chapter: the
// places of the nodes pushed (field `_place`; copies, as nodes move during the run) and the contents
// left for later (field `_lazy`). An element's `content` (an Image's `caption`) is pushed the first
// time the filter reads it: a function that looks only at a paragraph's fields, or returns at once,
// never pays for its inlines (docs/filters.md, "Cost and caching").
struct Pushing {
  std::vector<SourceLoc> places;
  // The book's root: an element a filter makes is placed at the filter's file and line under it
  // (install_made), so that what the filter typed is reported there, not at the chapter's first line.
  std::filesystem::path root;
  bool lazy = false;  // contents left for later (one filter table)
  struct Later {
    const doc::Node* nodes;  // the children's buffer: it moves with its node, and lives for the run
    std::size_t count;
    doc::Kind kind;
  };
  std::vector<Later> later;
  long long base = 0;  // the `_lazy` of later[0]; lower numbers are from earlier runs
};

// Makes the metatable of elements with contents left for later (once per Lua state; `pushing` must
// live as long as the state) and pushes the C function that gives such an element's plain text
// without pushing its contents (nil for any other value; the prelude's `stringify` uses it).
void install_lazy(lua_State* L, Pushing& pushing);
// Pushes the C function the prelude's constructors call to place the element they make: it records the
// filter's file and line that called the constructor in `pushing.places` and returns its index (the
// element's `_place`).
void install_made(lua_State* L, Pushing& pushing);
// Ends a run: elements kept past it (a filter may keep one in a library table) can no longer read
// the contents they stood for, which the tree may have moved or freed; reading them is an error.
void end_run(Pushing& pushing);

// Pushes `node` (with its subtree) as an element table. Call inside a protected call only: pushing
// allocates, and a refused allocation unwinds with longjmp. The nodes' places go to `pushing.places`,
// so that an element given back unchanged keeps them (field `_place`).
void push_element(lua_State* L, const doc::Node& node, Pushing& pushing);

// What a filter function returned, read into nodes (`out`): nil → nullopt (keep the element); an
// element → one node; a list of elements → those nodes (`{}` removes the element). A malformed value
// raises a Lua error naming what is wrong. Same call rules as push_element: nothing in this reading
// owns memory on the C++ stack, so an error unwinding through it loses nothing.
// `replaced`: the kind of the element replaced (the result must be of the same sort: inline, block…).
// `loc`: the place given to new nodes (the manuscript element the function was called for).
bool read_result(lua_State* L, int index, doc::Kind replaced, const SourceLoc& loc, Pushing& pushing,
                 std::vector<doc::Node>& out);

// The same, into the table on top of the stack.
void fill_element(lua_State* L, const doc::Node& node, Pushing& pushing);

// A whole-document hook gets its blocks as stubs: a table that answers only `tag`, made the whole
// element the first time another field of it is read or any is written. A stub given back untouched is taken
// back as the node it stands for, without converting it either way: appending a box to a chapter converts
// only the box.
struct Stubs {
  const std::vector<doc::Node>* blocks = nullptr;
  Pushing* pushing = nullptr;
};
// Pushes the list of stubs of `stubs.blocks` (which must outlive the call).
void push_stubs(lua_State* L, Stubs& stubs);

// The list of blocks at `index` (a whole document's `blocks`), read as read_result reads a result;
// a stub still untouched leaves a mark (a Document node) for settle_stubs.
void read_blocks(lua_State* L, int index, const SourceLoc& loc, Pushing& pushing, std::vector<doc::Node>& out,
                 const std::vector<doc::Node>* stubs = nullptr);

// Makes each mark in `result` the block of `blocks` its stub stood for: moved when given back once
// (appending a box to a chapter copies nothing), copied when more often. Plain C++, to call once the
// protected call has returned; `blocks` is left holding what was not moved.
void settle_stubs(std::vector<doc::Node>& result, std::vector<doc::Node>& blocks);

}  // namespace bb::bookfilters
