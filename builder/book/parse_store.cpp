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

#include "doc/tree_codec.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "text/digest.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[4] = {'B', 'B', 'P', 'T'};
constexpr std::uint32_t kFormat = 3;
// A stored parse larger than this is not read (a chapter's is a few times its Markdown).
constexpr std::size_t kMaxFileBytes = std::size_t{256} << 20;
constexpr std::int64_t kSettledNs = 2'000'000'000;

// A checksum against a damaged or truncated file (not against tampering: the file is the output
// folder's own, and a forged one could only describe some other Markdown).
std::uint64_t checksum(std::string_view s) {
  return text::checksum64(s);
}

using doc::codec::Decoder;
using doc::codec::encode_node;
using doc::codec::PathTable;
using doc::codec::put_loc;
using doc::codec::Reader;
using doc::codec::Writer;

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
  w.num(options.citations ? 1 : 0);
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

const std::string& executable_stamp() {
  static const std::string stamp = [] {
    auto id = source_id("/proc/self/exe");
    if (!id) return std::string();
    return "exe " + std::to_string(id->device) + ":" + std::to_string(id->inode) + ":" +
           std::to_string(id->size) + ":" + std::to_string(id->mtime_ns);
  }();
  return stamp;
}

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
  paths.write(w);
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
  if (!d.read_paths()) return std::nullopt;
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
