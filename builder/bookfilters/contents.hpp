// Contents left for later and whole-document stubs (contents.cpp): what pushing and reading elements
// (elements.cpp) needs of them. The functions for the runner are declared in elements.hpp.
#pragma once

#include <cstddef>

#include "bookfilters/elements.hpp"

namespace bb::bookfilters {

// The field a kind's children are in: `caption` for an Image (its alt text, as Pandoc names it),
// `content` for the others.
const char* children_field(doc::Kind kind);

// Pushes `count` nodes as a list of elements.
void push_elements(lua_State* L, const doc::Node* nodes, std::size_t count, Pushing& pushing);

// Leaves the children of `n` for later in the element on top of the stack: its `_lazy` field and the
// metatable that pushes them when first read.
void leave_for_later(lua_State* L, const doc::Node& n, Pushing& pushing);

// The contents left for later of the element at `index` (absolute), or nullptr: not such an element,
// or its contents were read. An element kept past its run is an error: what it stood for is gone.
const Pushing::Later* later_of(lua_State* L, int index, const Pushing& p);

// Pushes the contents of the element at `index` (absolute) into it: an element like any other.
void materialize(lua_State* L, int index, Pushing& p);

// The block of `blocks` that the table at `index` (absolute) stands for when it is a whole-document
// hook's stub still untouched, or -1.
long long stub_of(lua_State* L, int index, const std::vector<doc::Node>& blocks);

}  // namespace bb::bookfilters
