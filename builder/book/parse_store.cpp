// The parse store (parse_store.hpp): the file format, and reading it back without trusting it.
#include "book/parse_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "text/digest.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[4] = {'B', 'B', 'P', 'T'};
constexpr std::uint32_t kFormat = 2;
// Deeper trees are parsed every time (the front end bounds nesting far below this).
constexpr int kMaxDepth = 2000;
// A stored parse larger than this is not read (a chapter's is a few times its Markdown).
constexpr std::size_t kMaxFileBytes = std::size_t{256} << 20;
constexpr std::int64_t kSettledNs = 2'000'000'000;

// A field added to doc::Node must be written and read here too: these fail the build until it is.
static_assert(sizeof(doc::Node::Rare) == 5 * sizeof(std::string) + 16 + sizeof(std::vector<doc::Align>) +
                                             sizeof(std::vector<doc::Node>),
              "doc::Node::Rare changed: update encode_node and decode_node");
static_assert(sizeof(doc::Node::Extra) == sizeof(std::vector<std::string>) +
                                              sizeof(std::vector<std::pair<std::string, std::string>>) +
                                              sizeof(std::unique_ptr<doc::Node::Rare>),
              "doc::Node::Extra changed: update encode_node and decode_node");

// A checksum against a damaged or truncated file (not against tampering: the file is the output
// folder's own, and a forged one could only describe some other Markdown).
std::uint64_t checksum(std::string_view s) {
  return text::checksum64(s);
}

class Writer {
 public:
  std::string out;
  void u8(std::uint8_t v) { out += static_cast<char>(v); }
  void num(std::uint64_t v) {  // LEB128
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
  bool num(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t b = 0;
      if (!u8(b)) return false;
      v |= std::uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool signed_num(std::int64_t& v) {
    std::uint64_t u = 0;
    if (!num(u)) return false;
    v = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
    return true;
  }
  bool count(std::size_t& n) {  // a number of items, each at least one byte long
    std::uint64_t v = 0;
    if (!num(v) || v > s_.size() - at_) return false;
    n = static_cast<std::size_t>(v);
    return true;
  }
  bool text(std::string& s) {
    std::size_t n = 0;
    if (!count(n)) return false;
    s.assign(s_.data() + at_, n);
    at_ += n;
    return true;
  }
  bool view(std::string_view& s) {
    std::size_t n = 0;
    if (!count(n)) return false;
    s = s_.substr(at_, n);
    at_ += n;
    return true;
  }
  bool integer(int& v) {
    std::int64_t w = 0;
    if (!signed_num(w) || w < INT32_MIN || w > INT32_MAX) return false;
    v = static_cast<int>(w);
    return true;
  }
  [[nodiscard]] bool done() const { return at_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t at_ = 0;
};

// The header that must match: format, executable, source file and its id, front-end options.
void put_header(Writer& w, std::string_view stamp, const fs::path& source, const SourceId& id,
                const markdown::Options& options) {
  w.out.append(kMagic, 4);
  w.num(kFormat);
  w.text(stamp);
  w.text(source.native());
  w.num(id.device);
  w.num(id.inode);
  w.num(id.size);
  w.signed_num(id.mtime_ns);
  auto words = options.words;  // `of` is not const
  for (const char* kind : {"figure", "table", "example", "experiment", "think"}) {
    const auto* list = words.of(kind);
    w.num(list ? list->size() : 0);
    if (list)
      for (const auto& word : *list) w.text(word);
  }
}

// Source paths are written once each: a node's location names one of them by index.
class PathTable {
 public:
  std::uint64_t index(const SourcePath& p) {
    auto [it, fresh] = index_.try_emplace(p.get().native(), paths_.size());
    if (fresh) paths_.push_back(p.get().native());
    return it->second;
  }
  [[nodiscard]] const std::vector<std::string>& paths() const { return paths_; }

 private:
  std::map<std::string, std::uint64_t> index_;
  std::vector<std::string> paths_;
};

void put_loc(Writer& w, PathTable& paths, const SourceLoc& loc) {
  w.num(paths.index(loc.path));
  w.signed_num(loc.line);
  w.signed_num(loc.col);
}

bool encode_node(Writer& w, PathTable& paths, const doc::Node& n, int depth) {
  if (depth > kMaxDepth) return false;
  w.u8(static_cast<std::uint8_t>(n.kind));
  put_loc(w, paths, n.loc);
  w.text(n.text);
  w.num(n.children.size());
  for (const auto& c : n.children)
    if (!encode_node(w, paths, c, depth + 1)) return false;
  const doc::Node::Extra* x = n.extra_if();
  const doc::Node::Rare* r = x ? x->rare.get() : nullptr;
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
    if (!encode_node(w, paths, c, depth + 1)) return false;
  return true;
}

struct Decoder {
  Reader in;
  std::vector<SourcePath> paths;

  bool loc(SourceLoc& l) {
    std::uint64_t i = 0;
    if (!in.num(i) || i >= paths.size()) return false;
    l.path = paths[i];
    return in.integer(l.line) && in.integer(l.col);
  }

  bool node(doc::Node& n, int depth) {
    std::uint8_t kind = 0;
    if (depth > kMaxDepth || !in.u8(kind) || kind > static_cast<std::uint8_t>(doc::Kind::CalcNumber))
      return false;
    n.kind = static_cast<doc::Kind>(kind);
    std::size_t count = 0;
    if (!loc(n.loc) || !in.text(n.text) || !in.count(count)) return false;
    n.children.resize(count);
    for (auto& c : n.children)
      if (!node(c, depth + 1)) return false;
    std::uint8_t parts = 0;
    if (!in.u8(parts) || parts > 3 || parts == 2) return false;
    if (!parts) return true;
    doc::Node::Extra& x = n.extra();
    if (!in.count(count)) return false;
    x.classes.resize(count);
    for (auto& c : x.classes)
      if (!in.text(c)) return false;
    if (!in.count(count)) return false;
    x.attrs.resize(count);
    for (auto& [k, v] : x.attrs)
      if (!in.text(k) || !in.text(v)) return false;
    if (!(parts & 2)) return true;
    doc::Node::Rare& r = n.rare();
    for (std::string* s : {&r.id, &r.number, &r.info, &r.url, &r.title})
      if (!in.text(*s)) return false;
    std::uint8_t tight = 0;
    if (!in.integer(r.level) || !in.integer(r.start) || !in.u8(tight) || tight > 1 || !in.count(count))
      return false;
    r.tight = tight == 1;
    r.aligns.resize(count);
    for (auto& a : r.aligns) {
      std::uint8_t v = 0;
      if (!in.u8(v) || v > static_cast<std::uint8_t>(doc::Align::Right)) return false;
      a = static_cast<doc::Align>(v);
    }
    if (!in.count(count)) return false;
    r.caption.resize(count);
    for (auto& c : r.caption)
      if (!node(c, depth + 1)) return false;
    return true;
  }
};

// The executable that parsed: a rebuilt or upgraded bookbuild (whose front end may have changed)
// starts afresh. "" when it cannot be examined: nothing is then stored or read.
const std::string& executable_stamp() {
  static const std::string stamp = [] {
    auto id = source_id("/proc/self/exe");
    if (!id) return std::string();
    return "exe " + std::to_string(id->device) + ":" + std::to_string(id->inode) + ":" +
           std::to_string(id->size) + ":" + std::to_string(id->mtime_ns);
  }();
  return stamp;
}

struct StoreInUse {
  std::mutex mutex;
  fs::path dir;
};

StoreInUse& store_in_use() {
  static StoreInUse s;
  return s;
}

fs::path store_dir() {
  StoreInUse& s = store_in_use();
  std::lock_guard lock(s.mutex);
  return s.dir;
}

// One file per manuscript, named by a hash of its path (the header holds the path itself).
fs::path entry_file(const fs::path& dir, const fs::path& source) {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(checksum(source.native())));
  return dir / name;
}

}  // namespace

std::optional<SourceId> source_id(const fs::path& file) {
  inputs::note_file(file);
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return SourceId{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                  static_cast<std::uint64_t>(st.st_size),
                  static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::string encode_parse(std::string_view stamp, const fs::path& source, const SourceId& id,
                         const markdown::Options& options, const StoredParse& parse) {
  Writer body;
  PathTable paths;
  body.num(parse.diags.size());
  for (const auto& d : parse.diags) {
    body.u8(static_cast<std::uint8_t>(d.severity));
    put_loc(body, paths, d.loc);
    body.text(d.message);
    body.text(d.check);
  }
  if (!encode_node(body, paths, parse.root, 0)) return {};
  body.num(parse.formulas.size());
  for (const auto& f : parse.formulas) {
    body.text(f.tex);
    body.u8(f.display ? 1 : 0);
    body.text(f.result.mathml);
    body.num(f.result.errors.size());
    for (const auto& e : f.result.errors) {
      body.num(e.offset);
      body.text(e.message);
    }
    body.u8(f.result.tag ? (f.result.tag->starred ? 2 : 1) : 0);
    if (f.result.tag) {
      body.text(f.result.tag->text);
      body.num(f.result.tag->begin);
      body.num(f.result.tag->end);
    }
  }
  Writer w;
  put_header(w, stamp, source, id, options);
  w.num(paths.paths().size());
  for (const auto& p : paths.paths()) w.text(p);
  w.out += body.out;
  const std::uint64_t sum = checksum(w.out);
  for (int i = 0; i < 8; ++i) w.out += static_cast<char>((sum >> (8 * i)) & 0xFF);
  return std::move(w.out);
}

std::optional<StoredParse> decode_parse(std::string_view bytes, std::string_view stamp,
                                        const fs::path& source, const SourceId& id,
                                        const markdown::Options& options) {
  if (stamp.empty() || bytes.size() < 8) return std::nullopt;
  std::string_view body = bytes.substr(0, bytes.size() - 8);
  std::uint64_t sum = 0;
  for (int i = 0; i < 8; ++i)
    sum |= std::uint64_t(static_cast<std::uint8_t>(bytes[body.size() + i])) << (8 * i);
  Writer expected;
  put_header(expected, stamp, source, id, options);
  if (!body.starts_with(expected.out) || checksum(body) != sum) return std::nullopt;
  Decoder d{Reader(body.substr(expected.out.size())), {}};
  std::size_t count = 0;
  if (!d.in.count(count)) return std::nullopt;
  d.paths.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::string_view p;
    if (!d.in.view(p) || p.find('\0') != std::string_view::npos) return std::nullopt;
    d.paths.emplace_back(fs::path(p));
  }
  StoredParse out;
  if (!d.in.count(count)) return std::nullopt;
  out.diags.resize(count);
  for (auto& diag : out.diags) {
    std::uint8_t severity = 0;
    if (!d.in.u8(severity) || severity > static_cast<std::uint8_t>(Severity::Error) || !d.loc(diag.loc) ||
        !d.in.text(diag.message) || !d.in.text(diag.check))
      return std::nullopt;
    diag.severity = static_cast<Severity>(severity);
  }
  if (!d.node(out.root, 0) || !d.in.count(count)) return std::nullopt;
  out.formulas.resize(count);
  for (auto& f : out.formulas) {
    std::uint8_t display = 0, tag = 0;
    std::size_t errors = 0;
    if (!d.in.text(f.tex) || !d.in.u8(display) || display > 1 || !d.in.text(f.result.mathml) ||
        !d.in.count(errors))
      return std::nullopt;
    f.display = display == 1;
    f.result.errors.resize(errors);
    for (auto& e : f.result.errors) {
      std::uint64_t offset = 0;
      if (!d.in.num(offset) || offset > f.tex.size() || !d.in.text(e.message)) return std::nullopt;
      e.offset = static_cast<std::size_t>(offset);
    }
    if (!d.in.u8(tag) || tag > 2) return std::nullopt;
    if (tag) {
      math::EquationTag t;
      std::uint64_t begin = 0, end = 0;
      if (!d.in.text(t.text) || !d.in.num(begin) || !d.in.num(end) || begin > end || end > f.tex.size())
        return std::nullopt;
      t.starred = tag == 2;
      t.begin = static_cast<std::size_t>(begin);
      t.end = static_cast<std::size_t>(end);
      f.result.tag = std::move(t);
    }
  }
  if (!d.in.done()) return std::nullopt;
  return out;
}

std::string parse_store_header(std::string_view stamp, const fs::path& source, const SourceId& id,
                               const markdown::Options& options) {
  Writer w;
  put_header(w, stamp, source, id, options);
  return std::move(w.out);
}

std::uint64_t parse_store_checksum(std::string_view bytes) {
  return checksum(bytes);
}

void use_parse_store(const fs::path& dir) {
  StoreInUse& s = store_in_use();
  std::lock_guard lock(s.mutex);
  s.dir = dir;
}

bool parse_store_in_use() {
  return !store_dir().empty() && !executable_stamp().empty();
}

std::optional<StoredParse> load_parse(const fs::path& source, const SourceId& id,
                                      const markdown::Options& options) {
  fs::path dir = store_dir();
  if (dir.empty() || executable_stamp().empty()) return std::nullopt;
  std::string bytes = inputs::read_bounded(entry_file(dir, source), kMaxFileBytes).bytes;
  if (bytes.empty()) return std::nullopt;
  return decode_parse(bytes, executable_stamp(), source, id, options);
}

void store_parse(const fs::path& source, const SourceId& id, const markdown::Options& options,
                 const StoredParse& parse) {
  fs::path dir = store_dir();
  if (dir.empty() || executable_stamp().empty()) return;
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  if (id.mtime_ns > now - kSettledNs) return;
  std::string bytes = encode_parse(executable_stamp(), source, id, options, parse);
  if (bytes.empty()) return;
  // Written aside and renamed: a concurrent build reads the old entry or the new, never half of one.
  inputs::write_atomic(entry_file(dir, source), bytes);
}

}  // namespace bb::book
