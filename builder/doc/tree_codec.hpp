// The tree as bytes, for the caches that keep trees between runs: the parse store
// (book/parse_store.hpp) and the filtered-tree store (bookfilters/filtered_store.hpp). Numbers are
// LEB128, text is length-prefixed, a node's place names its file by index into a table of paths
// written once. Reading trusts nothing: every count is bounded by the bytes left, nesting is limited,
// and anything unexpected is a failure (a cache miss for the caller), never a crash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::doc::codec {

// Deeper trees are not written (the front end bounds nesting far below this).
inline constexpr int kMaxDepth = 2000;

class Writer {
 public:
  std::string out;
  void u8(std::uint8_t v) { out += static_cast<char>(v); }
  void num(std::uint64_t v) {
    while (v >= 0x80) {
      out += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
  }
  void signed_num(std::int64_t v) {
    num((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
  }
  void text(std::string_view s) {
    num(s.size());
    out += s;
  }
};

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool u8(std::uint8_t& v) {
    if (at_ >= s_.size()) return false;
    v = static_cast<std::uint8_t>(s_[at_++]);
    return true;
  }
  bool num(std::uint64_t& v);
  bool signed_num(std::int64_t& v);
  bool count(std::size_t& n);  // a number of items, each at least one byte long
  bool text(std::string& s);
  bool view(std::string_view& s);
  bool integer(int& v);  // a signed number in int's range
  [[nodiscard]] bool done() const { return at_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t at_ = 0;
};

// Source paths are written once each: a node's location names one of them by index.
class PathTable {
 public:
  std::uint64_t index(const SourcePath& p) {
    // Nodes in a row nearly always share their file, and a SourcePath is interned: one comparison.
    if (&p.get() == last_) return last_index_;
    last_index_ = find(p);
    last_ = &p.get();
    return last_index_;
  }
  [[nodiscard]] const std::vector<std::string>& paths() const { return paths_; }
  void write(Writer& w) const;

 private:
  std::uint64_t find(const SourcePath& p);
  std::map<std::string, std::uint64_t> index_;
  std::vector<std::string> paths_;
  const std::filesystem::path* last_ = nullptr;
  std::uint64_t last_index_ = 0;
};

void put_loc(Writer& w, PathTable& paths, const SourceLoc& loc);
// False when the tree is deeper than kMaxDepth (nothing useful is then in `w`).
bool encode_node(Writer& w, PathTable& paths, const Node& n, int depth = 0);
// The node as encode_node writes it, but as if it had no children (its caption is written): what a
// tree is around its blocks.
bool encode_shell(Writer& w, PathTable& paths, const Node& n);

// Reads what PathTable::write, put_loc and encode_node wrote.
struct Decoder {
  Reader in;
  std::vector<SourcePath> paths;

  bool read_paths();
  bool loc(SourceLoc& l);
  bool node(Node& n, int depth = 0);
};

}  // namespace bb::doc::codec
