// The tree's bytes (tree_codec.hpp): writing a node, and reading one back without trusting the bytes.
#include "doc/tree_codec.hpp"

#include <climits>
#include <filesystem>

namespace bb::doc::codec {

// A field added to doc::Node must be written and read here too: these fail the build until it is.
static_assert(sizeof(Node::Rare) ==
                  5 * sizeof(std::string) + 16 + sizeof(std::vector<Align>) + sizeof(std::vector<Node>),
              "doc::Node::Rare changed: update encode_node and Decoder::node");
static_assert(sizeof(Node::Extra) == sizeof(std::vector<std::string>) +
                                         sizeof(std::vector<std::pair<std::string, std::string>>) +
                                         sizeof(std::unique_ptr<Node::Rare>),
              "doc::Node::Extra changed: update encode_node and Decoder::node");

bool Reader::num(std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    std::uint8_t b = 0;
    if (!u8(b)) return false;
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

bool Reader::signed_num(std::int64_t& v) {
  std::uint64_t u = 0;
  if (!num(u)) return false;
  v = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
  return true;
}

bool Reader::count(std::size_t& n) {
  std::uint64_t v = 0;
  if (!num(v) || v > s_.size() - at_) return false;
  n = static_cast<std::size_t>(v);
  return true;
}

bool Reader::text(std::string& s) {
  std::size_t n = 0;
  if (!count(n)) return false;
  s.assign(s_.data() + at_, n);
  at_ += n;
  return true;
}

bool Reader::view(std::string_view& s) {
  std::size_t n = 0;
  if (!count(n)) return false;
  s = s_.substr(at_, n);
  at_ += n;
  return true;
}

bool Reader::integer(int& v) {
  std::int64_t w = 0;
  if (!signed_num(w) || w < INT_MIN || w > INT_MAX) return false;
  v = static_cast<int>(w);
  return true;
}

std::uint64_t PathTable::find(const SourcePath& p) {
  auto [it, fresh] = index_.try_emplace(p.get().native(), paths_.size());
  if (fresh) paths_.push_back(p.get().native());
  return it->second;
}

void PathTable::write(Writer& w) const {
  w.num(paths_.size());
  for (const auto& p : paths_) w.text(p);
}

void put_loc(Writer& w, PathTable& paths, const SourceLoc& loc) {
  w.num(paths.index(loc.path));
  w.signed_num(loc.line);
  w.signed_num(loc.col);
}

namespace {

bool encode(Writer& w, PathTable& paths, const Node& n, int depth, bool children) {
  if (depth > kMaxDepth) return false;
  w.u8(static_cast<std::uint8_t>(n.kind));
  put_loc(w, paths, n.loc);
  w.text(n.text);
  w.num(children ? n.children.size() : 0);
  if (children)
    for (const auto& c : n.children)
      if (!encode(w, paths, c, depth + 1, true)) return false;
  const Node::Extra* x = n.extra_if();
  const Node::Rare* r = x ? x->rare.get() : nullptr;
  w.u8(static_cast<std::uint8_t>((x ? 1 : 0) | (r ? 2 : 0)));
  if (!x) return true;
  w.num(x->classes.size());
  for (const auto& c : x->classes) w.text(c);
  w.num(x->attrs.size());
  for (const auto& [k, v] : x->attrs) {
    w.text(k);
    w.text(v);
  }
  if (!r) return true;
  for (const std::string* s : {&r->id, &r->number, &r->info, &r->url, &r->title}) w.text(*s);
  w.signed_num(r->level);
  w.signed_num(r->start);
  w.u8(r->tight ? 1 : 0);
  w.num(r->aligns.size());
  for (auto a : r->aligns) w.u8(static_cast<std::uint8_t>(a));
  w.num(r->caption.size());
  for (const auto& c : r->caption)
    if (!encode(w, paths, c, depth + 1, true)) return false;
  return true;
}

}  // namespace

bool encode_node(Writer& w, PathTable& paths, const Node& n, int depth) {
  return encode(w, paths, n, depth, true);
}

bool encode_shell(Writer& w, PathTable& paths, const Node& n) {
  return encode(w, paths, n, 0, false);
}

bool Decoder::read_paths() {
  std::size_t count = 0;
  if (!in.count(count)) return false;
  paths.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view p;
    if (!in.view(p) || p.find('\0') != std::string_view::npos) return false;
    paths.emplace_back(std::filesystem::path(p));
  }
  return true;
}

bool Decoder::loc(SourceLoc& l) {
  std::uint64_t i = 0;
  if (!in.num(i) || i >= paths.size()) return false;
  l.path = paths[i];
  return in.integer(l.line) && in.integer(l.col);
}

bool Decoder::node(Node& n, int depth) {
  std::uint8_t kind = 0;
  if (depth > kMaxDepth || !in.u8(kind) || kind > static_cast<std::uint8_t>(Kind::CalcNumber)) return false;
  n.kind = static_cast<Kind>(kind);
  std::size_t count = 0;
  if (!loc(n.loc) || !in.text(n.text) || !in.count(count)) return false;
  n.children.resize(count);
  for (auto& c : n.children)
    if (!node(c, depth + 1)) return false;
  std::uint8_t parts = 0;
  if (!in.u8(parts) || parts > 3 || parts == 2) return false;
  if (!parts) return true;
  Node::Extra& x = n.extra();
  if (!in.count(count)) return false;
  x.classes.resize(count);
  for (auto& c : x.classes)
    if (!in.text(c)) return false;
  if (!in.count(count)) return false;
  x.attrs.resize(count);
  for (auto& [k, v] : x.attrs)
    if (!in.text(k) || !in.text(v)) return false;
  if (!(parts & 2)) return true;
  Node::Rare& r = n.rare();
  for (std::string* s : {&r.id, &r.number, &r.info, &r.url, &r.title})
    if (!in.text(*s)) return false;
  std::uint8_t tight = 0;
  if (!in.integer(r.level) || !in.integer(r.start) || !in.u8(tight) || tight > 1 || !in.count(count))
    return false;
  r.tight = tight == 1;
  r.aligns.resize(count);
  for (auto& a : r.aligns) {
    std::uint8_t v = 0;
    if (!in.u8(v) || v > static_cast<std::uint8_t>(Align::Right)) return false;
    a = static_cast<Align>(v);
  }
  if (!in.count(count)) return false;
  r.caption.resize(count);
  for (auto& c : r.caption)
    if (!node(c, depth + 1)) return false;
  return true;
}

}  // namespace bb::doc::codec
