// doc::Node ↔ Lua element tables. Every function here may be unwound by a Lua error (longjmp): none
// keeps a C++ object that owns memory on its stack; nodes are built in place in the caller's vectors.
#include "bookfilters/elements.hpp"

#include <algorithm>
#include <cstring>
#include <lua.hpp>
#include <string_view>

#include "text/unicode.hpp"

namespace bb::bookfilters {

using doc::Kind;
using doc::Node;

namespace {

struct Name {
  Kind kind;
  const char* name;
};
constexpr Name kNames[] = {
    {Kind::Document, "Pandoc"},
    {Kind::Heading, "Header"},
    {Kind::Paragraph, "Para"},
    {Kind::BlockQuote, "BlockQuote"},
    {Kind::Callout, "Callout"},
    {Kind::BulletList, "BulletList"},
    {Kind::OrderedList, "OrderedList"},
    {Kind::ListItem, "ListItem"},
    {Kind::CodeBlock, "CodeBlock"},
    {Kind::HtmlBlock, "RawBlock"},
    {Kind::ThematicBreak, "HorizontalRule"},
    {Kind::Table, "Table"},
    {Kind::TableRow, "TableRow"},
    {Kind::TableCell, "TableCell"},
    {Kind::Figure, "Figure"},
    {Kind::DisplayMath, "Math"},
    {Kind::FootnoteDef, "Note"},
    {Kind::Text, "Str"},
    {Kind::Emph, "Emph"},
    {Kind::Strong, "Strong"},
    {Kind::Strike, "Strikeout"},
    {Kind::Code, "Code"},
    {Kind::InlineMath, "Math"},
    {Kind::Link, "Link"},
    {Kind::Image, "Image"},
    {Kind::FootnoteRef, "NoteRef"},
    {Kind::SoftBreak, "SoftBreak"},
    {Kind::LineBreak, "LineBreak"},
    {Kind::HtmlInline, "RawInline"},
    {Kind::Anchor, "Anchor"},
    {Kind::Span, "Span"},
    {Kind::CrossRef, "Ref"},
    {Kind::CalcNumber, "Calc"},
};

constexpr const char* kLazyKey = "bookfilters.lazy";

// Where a nested list of elements sits, and so which elements it may hold.
enum class Sort { Block, Inline, ListItem, TableRow, TableCell, Image };

Sort sort_of(Kind k) {
  switch (k) {
    case Kind::ListItem: return Sort::ListItem;
    case Kind::TableRow: return Sort::TableRow;
    case Kind::TableCell: return Sort::TableCell;
    default: return Node(k).is_block() ? Sort::Block : Sort::Inline;
  }
}

Sort content_sort(Kind k) {
  switch (k) {
    case Kind::Document:
    case Kind::BlockQuote:
    case Kind::Callout:
    case Kind::ListItem:
    case Kind::FootnoteDef: return Sort::Block;
    case Kind::BulletList:
    case Kind::OrderedList: return Sort::ListItem;
    case Kind::Table: return Sort::TableRow;
    case Kind::TableRow: return Sort::TableCell;
    case Kind::Figure: return Sort::Image;
    default: return Sort::Inline;
  }
}

const char* sort_name(Sort s) {
  switch (s) {
    case Sort::Block: return "a block";
    case Sort::Inline: return "an inline";
    case Sort::ListItem: return "a ListItem";
    case Sort::TableRow: return "a TableRow";
    case Sort::TableCell: return "a TableCell";
    case Sort::Image: return "an Image";
  }
  return "";
}

// The field that holds a node's `text`, named as Pandoc or bookbuild's own elements name it.
const char* text_field(Kind k) {
  switch (k) {
    case Kind::FootnoteRef:
    case Kind::FootnoteDef: return "key";
    case Kind::CrossRef: return "label";
    case Kind::CalcNumber: return "expr";
    default: return "text";
  }
}

const char* children_field(Kind k) {
  return k == Kind::Image ? "caption" : "content";  // Pandoc calls an image's alt text its caption
}

bool plain_inline(Kind k) {
  return k == Kind::Text || k == Kind::SoftBreak || k == Kind::LineBreak;
}

void set_string(lua_State* L, const char* key, const std::string& value) {
  lua_pushlstring(L, value.data(), value.size());
  lua_setfield(L, -2, key);
}

void push_list(lua_State* L, const Node* nodes, std::size_t count, Pushing& pushing) {
  lua_createtable(L, static_cast<int>(count), 0);
  for (std::size_t i = 0; i < count; ++i) {
    push_element(L, nodes[i], pushing);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

void push_attr(lua_State* L, const Node& n) {
  set_string(L, "identifier", n.id());
  lua_createtable(L, static_cast<int>(n.classes().size()), 0);
  for (std::size_t i = 0; i < n.classes().size(); ++i) {
    lua_pushlstring(L, n.classes()[i].data(), n.classes()[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "classes");
  lua_createtable(L, 0, static_cast<int>(n.attrs().size()));
  for (const auto& [k, v] : n.attrs()) {
    lua_pushlstring(L, v.data(), v.size());
    lua_setfield(L, -2, k.c_str());
  }
  lua_setfield(L, -2, "attributes");
}

const char* align_name(doc::Align a) {
  switch (a) {
    case doc::Align::Left: return "AlignLeft";
    case doc::Align::Center: return "AlignCenter";
    case doc::Align::Right: return "AlignRight";
    default: return "AlignDefault";
  }
}

void push_fields(lua_State* L, const Node& n, Pushing& pushing) {
  const Kind k = n.kind;
  if (k == Kind::InlineMath || k == Kind::DisplayMath) {
    lua_pushstring(L, k == Kind::InlineMath ? "InlineMath" : "DisplayMath");
    lua_setfield(L, -2, "mathtype");
  }
  if (k == Kind::HtmlBlock || k == Kind::HtmlInline) {
    lua_pushliteral(L, "html");
    lua_setfield(L, -2, "format");
  }
  if (k == Kind::Link) set_string(L, "target", n.url());
  if (k == Kind::Image) set_string(L, "src", n.url());
  if (k == Kind::Link || k == Kind::Image) set_string(L, "title", n.title());
  if (k == Kind::Heading) {
    lua_pushinteger(L, n.level());
    lua_setfield(L, -2, "level");
  }
  if (k == Kind::OrderedList) {
    lua_pushinteger(L, n.start());
    lua_setfield(L, -2, "start");
  }
  if (k == Kind::BulletList || k == Kind::OrderedList) {
    lua_pushboolean(L, n.tight());
    lua_setfield(L, -2, "tight");
  }
  if (k == Kind::CodeBlock) set_string(L, "info", n.info());
  if (!n.number().empty()) set_string(L, "number", n.number());
  if (k == Kind::Table) {
    lua_createtable(L, static_cast<int>(n.aligns().size()), 0);
    for (std::size_t i = 0; i < n.aligns().size(); ++i) {
      lua_pushstring(L, align_name(n.aligns()[i]));
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setfield(L, -2, "aligns");
  }
  if (k == Kind::Figure || k == Kind::Table) {
    push_list(L, n.caption().data(), n.caption().size(), pushing);
    lua_setfield(L, -2, "caption");
  }
}

}  // namespace

void fill_element(lua_State* L, const Node& n, Pushing& pushing) {
  luaL_checkstack(L, 8, "elements nested too deeply");
  const Kind k = n.kind;
  lua_pushstring(L, element_name(k));
  lua_setfield(L, -2, "tag");
  lua_pushinteger(L, static_cast<lua_Integer>(pushing.places.size()));
  lua_setfield(L, -2, "_place");
  pushing.places.push_back(n.loc);
  if (!n.text.empty() || k == Kind::Text) set_string(L, text_field(k), n.text);
  if (plain_inline(k)) return;
  push_attr(L, n);
  push_fields(L, n, pushing);
  if (pushing.lazy && !n.children.empty()) {
    pushing.later.push_back({n.children.data(), n.children.size(), k});
    lua_pushinteger(
        L, static_cast<lua_Integer>(pushing.base + static_cast<long long>(pushing.later.size()) - 1));
    lua_setfield(L, -2, "_lazy");
    lua_getfield(L, LUA_REGISTRYINDEX, kLazyKey);
    lua_setmetatable(L, -2);
    return;
  }
  push_list(L, n.children.data(), n.children.size(), pushing);
  lua_setfield(L, -2, children_field(k));
}

namespace {

// ---- contents left for later ----

// The contents left for later of the element at `index` (absolute), or nullptr: not such an element,
// or its contents were read. An element kept past its run is an error: what it stood for is gone.
const Pushing::Later* later_of(lua_State* L, int index, const Pushing& p) {
  if (!lua_getmetatable(L, index)) return nullptr;
  lua_getfield(L, LUA_REGISTRYINDEX, kLazyKey);
  const bool lazy = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  if (!lazy) return nullptr;
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
  push_list(L, later.nodes, later.count, p);
  lua_rawset(L, index);
}

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
  if (contents_key(L, 2)) {
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

// ---- reading back ----

struct Reader {
  lua_State* L;
  const SourceLoc& loc;
  Pushing& pushing;
  const std::vector<Node>* stubs = nullptr;  // the blocks stubs stand for (a whole-document hook)
  long nodes_left = 4'000'000;  // a cyclic or absurd result ends here instead of exhausting memory
};

void read_list(Reader& r, int index, Sort want, std::vector<Node>& out, int depth);

// A string from Lua goes into the tree only as well-formed UTF-8: every writer takes the tree's text
// as such, and a stray byte would be corrupt output far from the filter that made it.
// `what` names the string ("field `text`"), `key` fills a `%s` in it.
void check_utf8(lua_State* L, const char* s, std::size_t len, const char* what, const char* key = "") {
  std::size_t bad = 0;
  if (text::valid_utf8(std::string_view(s, len), &bad)) return;
  lua_pushfstring(L, what, key);
  luaL_error(L, "%s is not valid UTF-8 (byte %d of %d)", lua_tostring(L, -1), static_cast<int>(bad + 1),
             static_cast<int>(len));
}

// The string at field `key` of the table at `index` into `out` (absent: unchanged).
void read_string(Reader& r, int index, const char* key, std::string& out) {
  lua_State* L = r.L;
  const int type = lua_getfield(L, index, key);
  if (type == LUA_TSTRING || type == LUA_TNUMBER) {
    std::size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    check_utf8(L, s, len, "field `%s`", key);
    out.assign(s, len);
  } else if (type != LUA_TNIL) {
    luaL_error(L, "field `%s` must be a string, not a %s", key, lua_typename(L, type));
  }
  lua_pop(L, 1);
}

int read_integer(Reader& r, int index, const char* key, int fallback) {
  lua_State* L = r.L;
  int value = fallback;
  if (lua_getfield(L, index, key) != LUA_TNIL) {
    int ok = 0;
    const lua_Integer v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < -1'000'000 || v > 1'000'000) luaL_error(L, "field `%s` must be a small integer", key);
    value = static_cast<int>(v);
  }
  lua_pop(L, 1);
  return value;
}

void read_attr(Reader& r, int index, Node& n) {
  lua_State* L = r.L;
  std::string* id = nullptr;
  if (lua_getfield(L, index, "identifier") != LUA_TNIL) id = &n.rare().id;
  lua_pop(L, 1);
  if (id) read_string(r, index, "identifier", *id);
  if (lua_getfield(L, index, "classes") == LUA_TTABLE) {
    const lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= count; ++i) {
      if (lua_rawgeti(L, -1, i) != LUA_TSTRING) luaL_error(L, "`classes` must hold strings");
      std::size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      check_utf8(L, s, len, "a class");
      n.extra().classes.emplace_back(s, len);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (lua_getfield(L, index, "attributes") == LUA_TTABLE) {
    // Keys sorted by the bytes of their names: a Lua table's order is not the same from run to run.
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING ||
          (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER))
        luaL_error(L, "`attributes` must map names to strings");
      std::size_t klen = 0, vlen = 0;
      const char* key = lua_tolstring(L, -2, &klen);
      lua_pushvalue(L, -1);
      const char* value = lua_tolstring(L, -1, &vlen);
      check_utf8(L, key, klen, "an attribute's name");
      check_utf8(L, value, vlen, "an attribute's value");
      auto& attrs = n.extra().attrs;
      auto at = attrs.begin();
      while (at != attrs.end() && at->first.compare(0, std::string::npos, key, klen) < 0) ++at;
      attrs.emplace(at, std::string(key, klen), std::string(value, vlen));
      lua_pop(L, 2);
    }
  }
  lua_pop(L, 1);
}

std::optional<Kind> kind_of(lua_State* L, int index, std::string_view tag) {
  if (tag == "Math") {
    lua_getfield(L, index, "mathtype");
    const char* type = lua_tostring(L, -1);
    const bool display = type && std::strcmp(type, "DisplayMath") == 0;
    lua_pop(L, 1);
    return display ? Kind::DisplayMath : Kind::InlineMath;
  }
  for (const auto& n : kNames)
    if (tag == n.name && n.kind != Kind::Document) return n.kind;
  return std::nullopt;
}

void read_aligns(Reader& r, int index, Node& n) {
  lua_State* L = r.L;
  if (lua_getfield(L, index, "aligns") == LUA_TTABLE) {
    const lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, -1));
    auto& aligns = n.rare().aligns;
    for (lua_Integer i = 1; i <= count; ++i) {
      lua_rawgeti(L, -1, i);
      const char* a = lua_tostring(L, -1);
      const std::string_view s = a ? a : "";
      aligns.push_back(s == "AlignLeft"     ? doc::Align::Left
                       : s == "AlignCenter" ? doc::Align::Center
                       : s == "AlignRight"  ? doc::Align::Right
                                            : doc::Align::None);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

// The element at `index` (a table with a string `tag`), appended to `out`.
void read_element(Reader& r, int index, Sort want, std::vector<Node>& out, int depth) {
  lua_State* L = r.L;
  if (--r.nodes_left < 0) luaL_error(L, "the filter returned more than 4 million elements (a cycle?)");
  if (depth > 200) luaL_error(L, "elements nested more than 200 deep (a cycle?)");
  luaL_checkstack(L, 8, "elements nested too deeply");
  index = lua_absindex(L, index);
  if (r.stubs && lua_getmetatable(L, index)) {  // a block given back untouched: the node as it was
    lua_getfield(L, LUA_REGISTRYINDEX, "bookfilters.stub");
    const bool stub = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    lua_pushliteral(L, "_stub");
    lua_rawget(L, index);
    const lua_Integer i = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (stub && i >= 0 && static_cast<std::size_t>(i) < r.stubs->size()) {
      const Kind kind = (*r.stubs)[static_cast<std::size_t>(i)].kind;
      if (sort_of(kind) != want)
        luaL_error(L, "%s element stands where %s is expected", element_name(kind), sort_name(want));
      // A mark, made the node it stands for by settle_stubs once the whole result is read.
      out.emplace_back(Kind::Document, r.loc).rare().start = static_cast<int>(i);
      return;
    }
  }
  lua_getfield(L, index, "tag");
  const char* tag = lua_tostring(L, -1);
  const std::optional<Kind> kind = tag ? kind_of(L, index, tag) : std::nullopt;
  if (!kind) luaL_error(L, "`%s` is not an element this book's tree can hold", tag ? tag : "?");
  lua_pop(L, 1);
  if (want == Sort::Image ? *kind != Kind::Image : sort_of(*kind) != want)
    luaL_error(L, "%s element stands where %s is expected", element_name(*kind), sort_name(want));
  const SourceLoc* place = &r.loc;
  if (lua_getfield(L, index, "_place") == LUA_TNUMBER) {
    const lua_Integer p = lua_tointeger(L, -1);
    const std::vector<SourceLoc>& places = r.pushing.places;
    if (p >= 0 && static_cast<std::size_t>(p) < places.size()) place = &places[static_cast<std::size_t>(p)];
  }
  lua_pop(L, 1);
  Node& n = out.emplace_back(*kind, *place);
  read_string(r, index, text_field(*kind), n.text);
  if (plain_inline(*kind)) return;
  read_attr(r, index, n);
  if (*kind == Kind::Link) read_string(r, index, "target", n.rare().url);
  if (*kind == Kind::Image) read_string(r, index, "src", n.rare().url);
  if (*kind == Kind::Link || *kind == Kind::Image) read_string(r, index, "title", n.rare().title);
  if (*kind == Kind::Heading) n.rare().level = std::clamp(read_integer(r, index, "level", 1), 1, 6);
  if (*kind == Kind::OrderedList) n.rare().start = read_integer(r, index, "start", 1);
  if (*kind == Kind::BulletList || *kind == Kind::OrderedList) {
    lua_getfield(L, index, "tight");
    if (!lua_isnil(L, -1)) n.rare().tight = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (*kind == Kind::CodeBlock) read_string(r, index, "info", n.rare().info);
  if (lua_getfield(L, index, "number") != LUA_TNIL) read_string(r, index, "number", n.rare().number);
  lua_pop(L, 1);
  if (*kind == Kind::Table) read_aligns(r, index, n);
  if (*kind == Kind::Figure || *kind == Kind::Table) {
    if (lua_getfield(L, index, "caption") == LUA_TTABLE)
      read_list(r, -1, Sort::Inline, n.rare().caption, depth + 1);
    lua_pop(L, 1);
  }
  // Contents the filter never read: the nodes they stand for, as they are (an element whose `tag` now
  // wants contents of another sort gets them pushed and read as any, and refused as any).
  const Pushing::Later* later = later_of(L, index, r.pushing);
  if (later && (content_sort(later->kind) != content_sort(*kind) ||
                std::strcmp(children_field(later->kind), children_field(*kind)) != 0)) {
    materialize(L, index, r.pushing);
    later = nullptr;
  }
  if (later) {
    r.nodes_left -= static_cast<long>(later->count);
    n.children.assign(later->nodes, later->nodes + later->count);
  } else {
    const int type = lua_getfield(L, index, children_field(*kind));
    if (type == LUA_TTABLE)
      read_list(r, -1, content_sort(*kind), n.children, depth + 1);
    else if (type != LUA_TNIL)
      luaL_error(L, "field `%s` of %s must be a list of elements", children_field(*kind),
                 element_name(*kind));
    lua_pop(L, 1);
  }
  if (*kind == Kind::Figure && (n.children.size() != 1))
    luaL_error(L, "a Figure holds exactly one Image in its `content`");
}

bool is_element(lua_State* L, int index) {
  const bool tagged = lua_getfield(L, index, "tag") == LUA_TSTRING;
  lua_pop(L, 1);
  return tagged;
}

void read_list(Reader& r, int index, Sort want, std::vector<Node>& out, int depth) {
  lua_State* L = r.L;
  index = lua_absindex(L, index);
  if (is_element(L, index)) {  // a single element where a list was expected, as Pandoc accepts
    read_element(r, index, want, out, depth);
    return;
  }
  const lua_Integer count = static_cast<lua_Integer>(lua_rawlen(L, index));
  for (lua_Integer i = 1; i <= count; ++i) {
    if (lua_rawgeti(L, index, i) != LUA_TTABLE || !is_element(L, -1))
      luaL_error(L, "item %d of a list of elements is not an element", static_cast<int>(i));
    read_element(r, -1, want, out, depth + 1);
    lua_pop(L, 1);
  }
}

}  // namespace

const char* element_name(Kind kind) {
  for (const auto& n : kNames)
    if (n.kind == kind) return n.name;
  return "?";
}

std::vector<Kind> kinds_named(std::string_view name) {
  std::vector<Kind> kinds;
  for (const auto& n : kNames)
    if (name == n.name) kinds.push_back(n.kind);
  return kinds;
}

void push_element(lua_State* L, const Node& n, Pushing& pushing) {
  luaL_checkstack(L, 8, "elements nested too deeply");
  lua_createtable(L, 0, plain_inline(n.kind) ? 3 : 8);
  fill_element(L, n, pushing);
}

namespace {

constexpr const char* kStubKey = "bookfilters.stub";

// A stub's first read or write makes it the whole element (and no longer a stub).
void unstub(lua_State* L) {
  auto* stubs = static_cast<Stubs*>(lua_touserdata(L, lua_upvalueindex(1)));
  lua_pushliteral(L, "_stub");
  lua_rawget(L, 1);
  const lua_Integer i = lua_tointeger(L, -1);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setmetatable(L, 1);
  lua_pushliteral(L, "_stub");
  lua_pushnil(L);
  lua_rawset(L, 1);
  if (i < 0 || static_cast<std::size_t>(i) >= stubs->blocks->size()) return;
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
    lua_pushliteral(L, "_stub");
    lua_rawget(L, 1);
    const lua_Integer i = lua_tointeger(L, -1);
    if (i >= 0 && static_cast<std::size_t>(i) < stubs->blocks->size()) {
      lua_pushstring(L, element_name((*stubs->blocks)[static_cast<std::size_t>(i)].kind));
      return 1;
    }
    return 0;
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
  if (lua_getmetatable(L, 1)) {
    lua_getfield(L, LUA_REGISTRYINDEX, kStubKey);
    const bool stub = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    if (stub) unstub(L);
  }
  materialize(L, 1, *stubs->pushing);
  lua_pushvalue(L, lua_upvalueindex(2));  // next
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

}  // namespace

void push_stubs(lua_State* L, Stubs& stubs) {
  lua_createtable(L, 0, 3);
  lua_pushlightuserdata(L, &stubs);
  lua_getglobal(L, "next");
  lua_pushcclosure(L, stub_pairs, 2);
  lua_setfield(L, -2, "__pairs");
  lua_pushlightuserdata(L, &stubs);
  lua_pushcclosure(L, stub_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushlightuserdata(L, &stubs);
  lua_pushcclosure(L, stub_newindex, 1);
  lua_setfield(L, -2, "__newindex");
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
  lua_createtable(L, 0, 4);
  lua_pushlightuserdata(L, &pushing);
  lua_pushcclosure(L, lazy_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lazy_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushlightuserdata(L, &pushing);
  lua_getglobal(L, "next");
  lua_pushcclosure(L, lazy_pairs, 2);
  lua_setfield(L, -2, "__pairs");
  // Shared by every chapter this state filters: a filter may not read or change it.
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setfield(L, LUA_REGISTRYINDEX, kLazyKey);
  lua_pushlightuserdata(L, &pushing);
  lua_pushcclosure(L, lazy_text, 1);
}

void end_run(Pushing& pushing) {
  pushing.base += static_cast<long long>(pushing.later.size());
  pushing.later.clear();
  pushing.places.clear();
  pushing.lazy = false;
}

bool read_result(lua_State* L, int index, Kind replaced, const SourceLoc& loc, Pushing& pushing,
                 std::vector<Node>& out) {
  index = lua_absindex(L, index);
  if (lua_isnil(L, index)) return false;
  if (!lua_istable(L, index))
    luaL_error(L, "a filter function returns an element, a list of elements or nil");
  Reader r{L, loc, pushing};
  read_list(r, index, sort_of(replaced), out, 0);
  return true;
}

void read_blocks(lua_State* L, int index, const SourceLoc& loc, Pushing& pushing, std::vector<Node>& out,
                 const std::vector<Node>* stubs) {
  Reader r{L, loc, pushing, stubs};
  read_list(r, index, Sort::Block, out, 0);
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
