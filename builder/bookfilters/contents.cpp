// Contents left for later and whole-document stubs: elements that stand for nodes of the tree until
// the filter reads them (contents.hpp). Same rules as elements.cpp: every function here may be unwound
// by a Lua error (longjmp), so none keeps a C++ object that owns memory on its stack.
#include "bookfilters/contents.hpp"
#include "bookfilters/sandbox.hpp"

#include <cstdlib>
#include <cstring>
#include <lua.hpp>

namespace bb::bookfilters {

using doc::Kind;
using doc::Node;

namespace {

constexpr const char* kLazyKey = "bookfilters.lazy";
constexpr const char* kStubKey = "bookfilters.stub";

// Whether the table at `index` (absolute) has the metatable kept in the registry under `key`.
bool has_metatable(lua_State* L, int index, const char* key) {
  if (!lua_getmetatable(L, index)) return false;
  lua_getfield(L, LUA_REGISTRYINDEX, key);
  const bool same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

// The `_stub` field of the table at `index` (absolute): the block it stands for, or -1.
long long stub_number(lua_State* L, int index, const std::vector<Node>& blocks) {
  lua_pushliteral(L, "_stub");
  lua_rawget(L, index);
  int ok = 0;
  const long long i = static_cast<long long>(lua_tointegerx(L, -1, &ok));
  lua_pop(L, 1);
  return ok && i >= 0 && static_cast<std::size_t>(i) < blocks.size() ? i : -1;
}

// A metatable whose three metamethods share one context (their first upvalue; `next` is the second of
// __pairs), left on the stack.
void push_metatable(lua_State* L, void* context, lua_CFunction index, lua_CFunction newindex,
                    lua_CFunction pairs) {
  lua_createtable(L, 0, 4);
  lua_pushlightuserdata(L, context);
  lua_pushcclosure(L, index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushlightuserdata(L, context);
  lua_pushcclosure(L, newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushlightuserdata(L, context);
  lua_getglobal(L, "next");
  lua_pushcclosure(L, pairs, 2);
  lua_setfield(L, -2, "__pairs");
}

}  // namespace

long long stub_of(lua_State* L, int index, const std::vector<Node>& blocks) {
  return has_metatable(L, index, kStubKey) ? stub_number(L, index, blocks) : -1;
}

void leave_for_later(lua_State* L, const Node& n, Pushing& pushing) {
  pushing.later.push_back({n.children.data(), n.children.size(), n.kind});
  lua_pushinteger(L,
                  static_cast<lua_Integer>(pushing.base + static_cast<long long>(pushing.later.size()) - 1));
  lua_setfield(L, -2, "_lazy");
  lua_getfield(L, LUA_REGISTRYINDEX, kLazyKey);
  lua_setmetatable(L, -2);
}

// The contents left for later of the element at `index` (absolute), or nullptr: not such an element,
// or its contents were read. An element kept past its run is an error: what it stood for is gone.
const Pushing::Later* later_of(lua_State* L, int index, const Pushing& p) {
  if (!has_metatable(L, index, kLazyKey)) return nullptr;
  lua_pushliteral(L, "_lazy");
  lua_rawget(L, index);
  int ok = 0;
  const long long i = static_cast<long long>(lua_tointegerx(L, -1, &ok));
  lua_pop(L, 1);
  if (!ok) return nullptr;
  if (i < p.base || i - p.base >= static_cast<long long>(p.later.size()))
    luaL_error(L,
               "an element kept from an earlier chapter or filter cannot be read any more: keep what "
               "you need of it (its text, say) instead");
  return &p.later[static_cast<std::size_t>(i - p.base)];
}

// Pushes the contents of the element at `index` (absolute) into it: an element like any other.
void materialize(lua_State* L, int index, Pushing& p) {
  const Pushing::Later* found = later_of(L, index, p);
  if (!found) return;
  const Pushing::Later later = *found;  // pushing the contents may add to p.later
  lua_pushnil(L);
  lua_setmetatable(L, index);
  lua_pushliteral(L, "_lazy");
  lua_pushnil(L);
  lua_rawset(L, index);
  lua_pushstring(L, children_field(later.kind));
  push_elements(L, later.nodes, later.count, p);
  lua_rawset(L, index);
}

namespace {

bool contents_key(lua_State* L, int index) {
  if (lua_type(L, index) != LUA_TSTRING) return false;
  const char* key = lua_tostring(L, index);
  return std::strcmp(key, "content") == 0 || std::strcmp(key, "caption") == 0;
}

// __index: the contents, pushed on first read; any other absent field is nil.
int lazy_index(lua_State* L) {
  auto* p = static_cast<Pushing*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!contents_key(L, 2)) return 0;
  const Pushing::Later* later = later_of(L, 1, *p);
  if (!later || std::strcmp(lua_tostring(L, 2), children_field(later->kind)) != 0) return 0;
  materialize(L, 1, *p);
  lua_settop(L, 2);
  lua_rawget(L, 1);
  return 1;
}

// __newindex: new contents replace the ones left for later, which are then never pushed.
int lazy_newindex(lua_State* L) {
  auto* p = static_cast<Pushing*>(lua_touserdata(L, lua_upvalueindex(1)));
  const Pushing::Later* later = contents_key(L, 2) ? later_of(L, 1, *p) : nullptr;
  // Only the field the contents are in: an Image's `content` is not its caption.
  if (later && std::strcmp(lua_tostring(L, 2), children_field(later->kind)) == 0) {
    lua_pushnil(L);
    lua_setmetatable(L, 1);
    lua_pushliteral(L, "_lazy");
    lua_pushnil(L);
    lua_rawset(L, 1);
  }
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 0;
}

// __pairs: every field, the contents too.
int lazy_pairs(lua_State* L) {
  auto* p = static_cast<Pushing*>(lua_touserdata(L, lua_upvalueindex(1)));
  materialize(L, 1, *p);
  lua_pushvalue(L, lua_upvalueindex(2));  // next
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

// The plain text of nodes as the prelude's `stringify` makes it from their elements.
void add_text(luaL_Buffer* b, const Node* nodes, std::size_t count, int depth) {
  if (depth > 10'000) luaL_error(b->L, "elements nested more than 10000 deep");
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = nodes[i];
    switch (n.kind) {
      case Kind::SoftBreak:
      case Kind::LineBreak: luaL_addchar(b, ' '); break;
      case Kind::Text:
      case Kind::Code:
      case Kind::InlineMath:
      case Kind::DisplayMath: luaL_addlstring(b, n.text.data(), n.text.size()); break;
      default: break;
    }
    if (n.kind != Kind::Image) add_text(b, n.children.data(), n.children.size(), depth + 1);
  }
}

// text(x): the plain text of an element whose contents were not read, without reading them; nil for
// any other value.
int lazy_text(lua_State* L) {
  auto* p = static_cast<Pushing*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (lua_type(L, 1) != LUA_TTABLE) return 0;
  const Pushing::Later* found = later_of(L, 1, *p);
  if (!found) return 0;
  const Pushing::Later later = *found;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (later.kind != Kind::Image) add_text(&b, later.nodes, later.count, 0);
  luaL_pushresult(&b);
  return 1;
}

}  // namespace

namespace {

// A stub's first read or write makes it the whole element (and no longer a stub).
void unstub(lua_State* L) {
  auto* stubs = static_cast<Stubs*>(lua_touserdata(L, lua_upvalueindex(1)));
  const long long i = stub_number(L, 1, *stubs->blocks);
  lua_pushnil(L);
  lua_setmetatable(L, 1);
  lua_pushliteral(L, "_stub");
  lua_pushnil(L);
  lua_rawset(L, 1);
  if (i < 0) return;
  lua_pushvalue(L, 1);
  fill_element(L, (*stubs->blocks)[static_cast<std::size_t>(i)], *stubs->pushing);
  lua_pop(L, 1);
}

// After unstub the element may have contents left for later: read and write through its metatable.
int stub_index(lua_State* L) {
  // Its tag is read without making the whole element: a hook that looks for one kind of block reads
  // every block's tag. (The tag is not a field of the stub, so that writing it makes the element.)
  if (lua_type(L, 2) == LUA_TSTRING && std::strcmp(lua_tostring(L, 2), "tag") == 0) {
    auto* stubs = static_cast<Stubs*>(lua_touserdata(L, lua_upvalueindex(1)));
    const long long i = stub_number(L, 1, *stubs->blocks);
    if (i < 0) return 0;
    lua_pushstring(L, element_name((*stubs->blocks)[static_cast<std::size_t>(i)].kind));
    return 1;
  }
  unstub(L);
  lua_settop(L, 2);
  lua_gettable(L, 1);
  return 1;
}

int stub_newindex(lua_State* L) {
  unstub(L);
  lua_settop(L, 3);
  lua_settable(L, 1);
  return 0;
}

// __pairs: every field of the whole element, its contents too.
int stub_pairs(lua_State* L) {
  auto* stubs = static_cast<Stubs*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (has_metatable(L, 1, kStubKey)) unstub(L);
  materialize(L, 1, *stubs->pushing);
  lua_pushvalue(L, lua_upvalueindex(2));  // next
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

}  // namespace

void push_stubs(lua_State* L, Stubs& stubs) {
  push_metatable(L, &stubs, stub_index, stub_newindex, stub_pairs);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kStubKey);
  const std::vector<Node>& blocks = *stubs.blocks;
  lua_createtable(L, static_cast<int>(blocks.size()), 0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, static_cast<lua_Integer>(i));
    lua_setfield(L, -2, "_stub");
    lua_pushvalue(L, -3);
    lua_setmetatable(L, -2);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_remove(L, -2);
}

void install_lazy(lua_State* L, Pushing& pushing) {
  push_metatable(L, &pushing, lazy_index, lazy_newindex, lazy_pairs);
  // Shared by every chapter this state filters: a filter may not read or change it.
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setfield(L, LUA_REGISTRYINDEX, kLazyKey);
  lua_pushlightuserdata(L, &pushing);
  lua_pushcclosure(L, lazy_text, 1);
}

namespace {

// made(): the index in `places` of the filter line that called the constructor calling this.
int made_here(lua_State* L) {
  auto* p = static_cast<Pushing*>(lua_touserdata(L, lua_upvalueindex(1)));
  const std::string where = lua_place(L);  // "filters/x.lua:12", the first frame of a file
  const auto colon = where.rfind(':');
  if (colon == std::string::npos || p->root.empty()) return 0;
  SourceLoc loc{p->root / where.substr(0, colon), std::atoi(where.c_str() + colon + 1), 1};
  p->places.push_back(std::move(loc));
  lua_pushinteger(L, static_cast<lua_Integer>(p->places.size() - 1));
  return 1;
}

}  // namespace

void install_made(lua_State* L, Pushing& pushing) {
  lua_pushlightuserdata(L, &pushing);
  lua_pushcclosure(L, made_here, 1);
}

void end_run(Pushing& pushing) {
  pushing.base += static_cast<long long>(pushing.later.size());
  pushing.later.clear();
  pushing.places.clear();
  pushing.lazy = false;
}

namespace {

void find_marks(std::vector<Node>& nodes, std::vector<Node*>& marks) {
  for (Node& n : nodes) {
    if (n.kind == Kind::Document) marks.push_back(&n);
    if (auto* rare = n.rare_if()) find_marks(rare->caption, marks);
    find_marks(n.children, marks);
  }
}

}  // namespace

void settle_stubs(std::vector<Node>& result, std::vector<Node>& blocks) {
  std::vector<Node*> marks;
  find_marks(result, marks);
  std::vector<int> uses(blocks.size(), 0);
  for (const Node* m : marks) ++uses[static_cast<std::size_t>(m->start())];
  for (Node* m : marks) {
    const auto i = static_cast<std::size_t>(m->start());
    if (--uses[i] == 0)
      *m = std::move(blocks[i]);
    else
      *m = blocks[i];
  }
}

}  // namespace bb::bookfilters
