// doc::Node ↔ Lua element tables. Every function here may be unwound by a Lua error (longjmp): none
// keeps a C++ object that owns memory on its stack; nodes are built in place in the caller's vectors.
#include "bookfilters/elements.hpp"

#include <algorithm>
#include <cstring>
#include <lua.hpp>
#include <string_view>

#include "bookfilters/contents.hpp"
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
    {Kind::DefinitionList, "DefinitionList"},
    {Kind::DefinitionTerm, "DefinitionTerm"},
    {Kind::DefinitionDetails, "DefinitionDetails"},
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
    {Kind::Subscript, "Subscript"},
    {Kind::Superscript, "Superscript"},
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

// Where a nested list of elements sits, and so which elements it may hold.
enum class Sort { Block, Inline, ListItem, TableRow, TableCell, Image, Definition };

Sort sort_of(Kind k) {
  switch (k) {
    case Kind::ListItem: return Sort::ListItem;
    case Kind::TableRow: return Sort::TableRow;
    case Kind::TableCell: return Sort::TableCell;
    case Kind::DefinitionTerm:
    case Kind::DefinitionDetails: return Sort::Definition;
    default: return Node(k).is_block() ? Sort::Block : Sort::Inline;
  }
}

Sort content_sort(Kind k) {
  switch (k) {
    case Kind::Document:
    case Kind::BlockQuote:
    case Kind::Callout:
    case Kind::ListItem:
    case Kind::DefinitionDetails:
    case Kind::FootnoteDef: return Sort::Block;
    case Kind::DefinitionList: return Sort::Definition;
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
    case Sort::Definition: return "a DefinitionTerm or DefinitionDetails";
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

bool plain_inline(Kind k) {
  return k == Kind::Text || k == Kind::SoftBreak || k == Kind::LineBreak;
}

void set_string(lua_State* L, const char* key, const std::string& value) {
  lua_pushlstring(L, value.data(), value.size());
  lua_setfield(L, -2, key);
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
  if (k == Kind::BulletList || k == Kind::OrderedList || k == Kind::DefinitionList) {
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
    push_elements(L, n.caption().data(), n.caption().size(), pushing);
    lua_setfield(L, -2, "caption");
  }
}

}  // namespace

const char* children_field(Kind k) {
  return k == Kind::Image ? "caption" : "content";  // Pandoc calls an image's alt text its caption
}

void push_elements(lua_State* L, const Node* nodes, std::size_t count, Pushing& pushing) {
  lua_createtable(L, static_cast<int>(count), 0);
  for (std::size_t i = 0; i < count; ++i) {
    push_element(L, nodes[i], pushing);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

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
    leave_for_later(L, n, pushing);
    return;
  }
  push_elements(L, n.children.data(), n.children.size(), pushing);
  lua_setfield(L, -2, children_field(k));
}

namespace {

// ---- reading back ----

struct Reader {
  lua_State* L;
  // The place given to an element the filter wrote as a plain table (no `_place`): the element it
  // stands in, or the nearest enclosing element that has a place.
  const SourceLoc* loc;
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
  // A block given back untouched: the node as it was.
  if (const long long i = r.stubs ? stub_of(L, index, *r.stubs) : -1; i >= 0) {
    const Kind kind = (*r.stubs)[static_cast<std::size_t>(i)].kind;
    if (sort_of(kind) != want)
      luaL_error(L, "%s element stands where %s is expected", element_name(kind), sort_name(want));
    // A mark, made the node it stands for by settle_stubs once the whole result is read.
    out.emplace_back(Kind::Document, *r.loc).rare().start = static_cast<int>(i);
    return;
  }
  lua_getfield(L, index, "tag");
  const char* tag = lua_tostring(L, -1);
  const std::optional<Kind> kind = tag ? kind_of(L, index, tag) : std::nullopt;
  if (!kind) luaL_error(L, "`%s` is not an element this book's tree can hold", tag ? tag : "?");
  lua_pop(L, 1);
  if (want == Sort::Image ? *kind != Kind::Image : sort_of(*kind) != want)
    luaL_error(L, "%s element stands where %s is expected", element_name(*kind), sort_name(want));
  const SourceLoc* place = r.loc;
  if (lua_getfield(L, index, "_place") == LUA_TNUMBER) {
    const lua_Integer p = lua_tointeger(L, -1);
    const std::vector<SourceLoc>& places = r.pushing.places;
    if (p >= 0 && static_cast<std::size_t>(p) < places.size()) place = &places[static_cast<std::size_t>(p)];
  }
  lua_pop(L, 1);
  Node& n = out.emplace_back(*kind, *place);
  read_string(r, index, text_field(*kind), n.text);
  if (plain_inline(*kind)) return;
  // Elements inside this one without a place of their own are placed where it is (`n` stays put while
  // its children are read: they go into its own vectors). Set back below; a Lua error ends the reading.
  const SourceLoc* outer = r.loc;
  r.loc = &n.loc;
  read_attr(r, index, n);
  if (*kind == Kind::Link) read_string(r, index, "target", n.rare().url);
  if (*kind == Kind::Image) read_string(r, index, "src", n.rare().url);
  if (*kind == Kind::Link || *kind == Kind::Image) read_string(r, index, "title", n.rare().title);
  if (*kind == Kind::Heading) n.rare().level = std::clamp(read_integer(r, index, "level", 1), 1, 6);
  if (*kind == Kind::OrderedList) n.rare().start = read_integer(r, index, "start", 1);
  if (*kind == Kind::BulletList || *kind == Kind::OrderedList || *kind == Kind::DefinitionList) {
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
  r.loc = outer;
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

bool read_result(lua_State* L, int index, Kind replaced, const SourceLoc& loc, Pushing& pushing,
                 std::vector<Node>& out) {
  index = lua_absindex(L, index);
  if (lua_isnil(L, index)) return false;
  if (!lua_istable(L, index))
    luaL_error(L, "a filter function returns an element, a list of elements or nil");
  Reader r{L, &loc, pushing};
  read_list(r, index, sort_of(replaced), out, 0);
  return true;
}

void read_blocks(lua_State* L, int index, const SourceLoc& loc, Pushing& pushing, std::vector<Node>& out,
                 const std::vector<Node>* stubs) {
  Reader r{L, &loc, pushing, stubs};
  read_list(r, index, Sort::Block, out, 0);
}

}  // namespace bb::bookfilters
