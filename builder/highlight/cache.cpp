// The highlight cache file: what makes it valid (the stamp of the Source-highlight installation), how
// it is read without trusting a byte of it, and which blocks are written back.
#include "highlight/cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_map>

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "modules/modules.hpp"
#include "text/binary.hpp"
#include "text/digest.hpp"

namespace bb::highlight::cache {

namespace {

using text::put_u32;

// Bumped whenever the layout below or the meaning of a token changes.
constexpr std::uint32_t kFormat = 1;
constexpr char kMagic[4] = {'B', 'B', 'H', 'L'};

// The language's length, the language, the code: no two blocks share a key.
std::string key_of(std::string_view language, std::string_view code) {
  std::string key;
  key.reserve(4 + language.size() + code.size());
  put_u32(key, static_cast<std::uint32_t>(language.size()));
  key += language;
  key += code;
  return key;
}

// One file's identity in the stamp; false when it cannot be examined.
bool add_file(std::string& out, int dir, const char* name, const std::string& shown) {
  if (dir == AT_FDCWD) inputs::note_file(std::string_view(name));
  struct stat st {};
  if (fstatat(dir, name, &st, 0) != 0) return false;
  out += shown;
  out += ' ' + std::to_string(st.st_size) + ' ' + std::to_string(st.st_mtim.tv_sec) + '.' +
         std::to_string(st.st_mtim.tv_nsec) + '\n';
  return true;
}

bool add_file(std::string& out, const std::string& path) {
  return add_file(out, AT_FDCWD, path.c_str(), path);
}

// The data folder Source-highlight's Settings::retrieveDataDir() picks: the environment, then the
// user's configuration file (whose content is part of the stamp as well), then the installed one.
std::string data_dir(std::string& out) {
  if (const char* env = std::getenv("SOURCE_HIGHLIGHT_DATADIR"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home) {
    inputs::note_file(std::string(home) + "/.source-highlight/source-highlight.conf");
    std::ifstream conf(std::string(home) + "/.source-highlight/source-highlight.conf", std::ios::binary);
    if (conf) {
      std::stringstream text;
      text << conf.rdbuf();
      // By its digest: the stamp's lines stay lines, and only a section's start with "lang ".
      out += "conf " + text::sha256_hex(text.str()) + '\n';
      std::string line;
      while (std::getline(text, line)) {
        // datadir = "/some/folder"
        auto word = line.find_first_not_of(" \t");
        if (word == std::string::npos || line.compare(word, 7, "datadir") != 0) continue;
        auto eq = line.find_first_not_of(" \t", word + 7);
        if (eq == std::string::npos || line[eq] != '=') continue;
        auto open = line.find('"', eq);
        auto close = open == std::string::npos ? open : line.find('"', open + 1);
        if (close != std::string::npos && close > open + 1) return line.substr(open + 1, close - open - 1);
      }
    }
  }
  return BOOKBUILD_SOURCE_HIGHLIGHT_DATA_DIR;
}

constexpr std::string_view kSection = "lang ";
constexpr std::string_view kFile = "file ";
constexpr std::int64_t kSettledNs = 2'000'000'000;

// A definition file's stamp line: "file NAME dev ino size mtime mode", or "file NAME -" when missing.
// `settled` becomes false for a file modified in the last two seconds.
std::string file_line(const std::string& dir, std::string_view name, bool& settled) {
  const std::string path = dir + '/' + std::string(name);
  inputs::note_file(path);
  std::string line = std::string(kFile) + std::string(name);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return line + " -\n";
  const std::int64_t mtime =
      static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  if (now - mtime < kSettledNs) settled = false;
  return line + ' ' + std::to_string(st.st_dev) + ' ' + std::to_string(st.st_ino) + ' ' +
         std::to_string(st.st_size) + ' ' + std::to_string(mtime) + ' ' + std::to_string(st.st_mode) + '\n';
}

// Every name a definition's `include` directives could name: a quoted (" or ') string after the word
// "include", wherever it stands. Reading more than Source-highlight would (a comment, a regular expression
// that mentions the word) only adds files to watch.
std::vector<std::string> included_names(std::string_view text) {
  std::vector<std::string> names;
  for (std::size_t at = text.find("include"); at != std::string_view::npos; at = text.find("include", at)) {
    at += 7;
    std::size_t q = at;
    while (q < text.size() && (text[q] == ' ' || text[q] == '\t' || text[q] == '\r' || text[q] == '\n')) ++q;
    if (q >= text.size() || (text[q] != '"' && text[q] != '\'')) continue;
    const std::size_t close = text.find(text[q], q + 1);
    if (close == std::string_view::npos) continue;
    std::string_view name = text.substr(q + 1, close - q - 1);
    if (!name.empty() && name.find('\n') == std::string_view::npos) names.emplace_back(name);
  }
  return names;
}

// The sections of `stored` re-examined: each listed file's line taken again (without reading it). ""
// when `stored` holds anything but sections.
std::string sections_again(std::string_view stored, const std::string& dir) {
  std::string out;
  bool settled = true;
  while (!stored.empty()) {
    const std::size_t eol = stored.find('\n');
    if (eol == std::string_view::npos) return {};
    const std::string_view line = stored.substr(0, eol);
    stored.remove_prefix(eol + 1);
    if (line.substr(0, kSection.size()) == kSection) {
      out += line;
      out += '\n';
    } else if (line.substr(0, kFile.size()) == kFile && !out.empty()) {
      const std::string_view rest = line.substr(kFile.size());
      out += file_line(dir, rest.substr(0, rest.find(' ')), settled);
    } else {
      return {};
    }
  }
  return out;
}

std::uint32_t checksum(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    const auto n = static_cast<uInt>(std::min<std::size_t>(bytes.size(), 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), n);
    bytes.remove_prefix(n);
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace

std::string data_folder() {
  std::string unused;
  return data_dir(unused);
}

std::optional<std::string> stamp(std::string_view stored) {
  std::string out = "bookbuild highlight cache " + std::to_string(kFormat) + '\n';
  if (!add_file(out, modules::module_path(modules::Module::Highlight))) return std::nullopt;
  std::string_view libraries = BOOKBUILD_SOURCE_HIGHLIGHT_LIBRARIES;
  while (!libraries.empty()) {
    auto colon = libraries.find(':');
    if (!add_file(out, std::string(libraries.substr(0, colon)))) return std::nullopt;
    libraries = colon == std::string_view::npos ? std::string_view() : libraries.substr(colon + 1);
  }
  const std::string dir = data_dir(out);
  out += "data " + dir + '\n';
  const std::string map = dir + "/lang.map";
  if (!add_file(out, AT_FDCWD, map.c_str(), "map " + map)) return std::nullopt;
  // The sections follow the first part; a stored stamp of another first part keeps none.
  if (stored.size() > out.size() && stored.substr(0, out.size()) == out)
    out += sections_again(stored.substr(out.size()), dir);
  return out;
}

std::optional<std::string> as_first_read(const std::string& language,
                                         const std::optional<std::string>& section) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::optional<std::string>> first;
  std::lock_guard lock(mutex);
  const auto [at, inserted] = first.try_emplace(language, section);
  if (inserted || at->second == section) return section;
  return std::nullopt;
}

std::string_view stored_stamp(std::string_view bytes) {
  text::ByteReader in(bytes);
  std::string_view magic, stamp;
  std::uint32_t format = 0;
  if (!in.bytes(4, magic) || magic != std::string_view(kMagic, 4) || !in.u32(format) || format != kFormat ||
      !in.text(stamp))
    return {};
  return stamp;
}

std::optional<std::string> language_section(const std::string& language, const std::string& definition) {
  std::string out = std::string(kSection) + language + '\n';
  if (language.find('\n') != std::string::npos) return std::nullopt;
  std::string unused;
  const std::string dir = data_dir(unused);
  std::vector<std::string> todo;
  if (!definition.empty()) todo.push_back(definition);
  std::set<std::string> seen(todo.begin(), todo.end());
  bool settled = true;
  while (!todo.empty()) {
    const std::string name = std::move(todo.back());
    todo.pop_back();
    // Source-highlight opens a name with a folder from the working folder, not the data folder.
    if (name.find_first_of("/\\\n ") != std::string::npos) return std::nullopt;
    const std::string line = file_line(dir, name, settled);  // before the file is read
    out += line;
    if (line.ends_with(" -\n")) continue;  // missing: recorded as such, nothing to read
    auto read = inputs::read_bounded(dir + '/' + name, std::size_t{16} << 20);
    if (!read.ok()) return std::nullopt;
    for (auto& n : included_names(read.bytes))
      if (seen.insert(n).second) todo.push_back(std::move(n));
  }
  if (!settled) return std::nullopt;
  return out;
}

Store::Store(std::string stamp, std::string_view bytes) : stamp_(std::move(stamp)) {
  // The sections of the stamp: kept only with the file's blocks. A section re-examined from a file that
  // was not accepted may miss what a changed definition now includes, so it is not kept.
  const std::size_t first = stamp_.find('\n' + std::string(kSection));
  if (!parse(bytes)) {
    entries_.clear();
    generation_ = 0;
    if (first != std::string::npos) stamp_.resize(first + 1);
    return;
  }
  for (std::size_t at = first; at != std::string::npos;
       at = stamp_.find('\n' + std::string(kSection), at + 1)) {
    const std::size_t name = at + 1 + kSection.size();
    covered_[stamp_.substr(name, stamp_.find('\n', name) - name)] = true;
  }
}

std::optional<bool> Store::covers(const std::string& language) const {
  std::lock_guard lock(mutex_);
  auto it = covered_.find(language);
  if (it == covered_.end()) return std::nullopt;
  return it->second;
}

void Store::cover(const std::string& language, const std::optional<std::string>& section) {
  std::lock_guard lock(mutex_);
  if (!covered_.emplace(language, section.has_value()).second || !section) return;
  stamp_ += *section;
  dirty_ = true;
}

std::string Store::stamp() const {
  std::lock_guard lock(mutex_);
  return stamp_;
}

// The layout (integers little-endian u32 unless said):
//   "BBHL" format stamp-length stamp generation
//   kind-count { u8 length, name }...            the token kinds, "" (plain text) among them
//   block-count { written language-length language code-length code
//                 u8 highlighted [token-count { u8 kind-index, length }...] }...
//   CRC-32 of all the above
// A block's token lengths add up to its code: the tokens' texts are slices of it. The checksum turns
// a damaged byte into an ignored file rather than a wrongly coloured token.
bool Store::parse(std::string_view bytes) {
  if (bytes.size() < 4 ||
      checksum(bytes.substr(0, bytes.size() - 4)) != text::ByteReader(bytes.substr(bytes.size() - 4)).u32())
    return false;
  text::ByteReader in(bytes.substr(0, bytes.size() - 4));
  std::string_view magic, stamp;
  std::uint32_t format = 0, kinds = 0, blocks = 0;
  if (!in.bytes(4, magic) || magic != std::string_view(kMagic, 4) || !in.u32(format) || format != kFormat ||
      !in.text(stamp) || stamp != stamp_ || !in.u32(generation_) || !in.u32(kinds) || kinds > in.left())
    return false;
  std::vector<std::string> kind(kinds);
  for (auto& k : kind) {
    std::uint8_t n = 0;
    std::string_view name;
    if (!in.u8(n) || !in.bytes(n, name)) return false;
    k = name;
    if (!k.empty() && !style_of(k)) return false;  // not a kind the module reports
  }
  if (!in.u32(blocks) || blocks > in.left()) return false;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    Entry e;
    std::string_view language, code;
    std::uint8_t highlighted = 0;
    if (!in.u32(e.written) || e.written > generation_ || !in.text(language) || !in.text(code) ||
        !in.u8(highlighted) || highlighted > 1)
      return false;
    if (highlighted) {
      std::uint32_t count = 0;
      if (!in.u32(count) || count > in.left() / 5) return false;
      std::vector<Token> tokens(count);
      std::size_t at = 0;
      for (auto& t : tokens) {
        std::uint8_t k = 0;
        std::uint32_t length = 0;
        if (!in.u8(k) || k >= kind.size() || !in.u32(length) || length > code.size() - at) return false;
        t.kind = kind[k];
        t.text = code.substr(at, length);
        at += length;
      }
      if (at != code.size()) return false;
      e.result = std::move(tokens);
    }
    if (!entries_.emplace(key_of(language, code), std::move(e)).second) return false;
  }
  return in.left() == 0;
}

std::optional<Result> Store::find(const std::string& language, std::string_view code) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key_of(language, code));
  if (it == entries_.end()) return std::nullopt;
  it->second.used = true;
  return it->second.result;
}

void Store::put(const std::string& language, std::string_view code, Result result) {
  // Only what the file can hold and give back: tokens that are the code cut into runs of known kinds.
  if (result) {
    std::size_t size = 0;
    for (const auto& t : *result) {
      if (!t.kind.empty() && !style_of(t.kind)) return;
      size += t.text.size();
    }
    if (size != code.size()) return;
  }
  std::lock_guard lock(mutex_);
  Entry& e = entries_[key_of(language, code)];
  e.used = true;
  e.result = std::move(result);
  dirty_ = true;
}

std::optional<std::string> Store::save() {
  std::lock_guard lock(mutex_);
  // A block in use whose mark is getting old is written again, so that runs that only hit keep it.
  bool write = dirty_;
  for (const auto& [key, e] : entries_)
    write = write || (e.used && generation_ - e.written >= kKeepWrites / 2);
  if (!write) {
    for (auto& [key, e] : entries_) e.used = false;
    return std::nullopt;
  }
  const bool wrap = generation_ == std::numeric_limits<std::uint32_t>::max();
  generation_ = wrap ? 1 : generation_ + 1;
  for (auto it = entries_.begin(); it != entries_.end();) {
    Entry& e = it->second;
    if (e.used)
      e.written = generation_;
    else if (wrap || generation_ - e.written > kKeepWrites) {
      it = entries_.erase(it);
      continue;
    }
    e.used = false;
    ++it;
  }
  dirty_ = false;
  return serialize();
}

std::size_t Store::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::string Store::serialize() const {
  // Sorted, so that the same blocks always give the same file.
  std::map<std::string_view, const Entry*> sorted;
  std::map<std::string, std::uint8_t> kinds{{"", 0}};
  for (const auto& [key, e] : entries_) {
    sorted.emplace(key, &e);
    if (e.result)
      for (const auto& t : *e.result) kinds.emplace(t.kind, 0);
  }
  std::string out(kMagic, 4);
  put_u32(out, kFormat);
  put_u32(out, static_cast<std::uint32_t>(stamp_.size()));
  out += stamp_;
  put_u32(out, generation_);
  put_u32(out, static_cast<std::uint32_t>(kinds.size()));
  std::uint8_t index = 0;
  for (auto& [name, i] : kinds) {
    i = index++;
    out += static_cast<char>(name.size());
    out += name;
  }
  put_u32(out, static_cast<std::uint32_t>(sorted.size()));
  for (const auto& [key, e] : sorted) {
    put_u32(out, e->written);
    std::string_view language;
    text::ByteReader(key).text(language);
    put_u32(out, static_cast<std::uint32_t>(language.size()));
    out += language;
    put_u32(out, static_cast<std::uint32_t>(key.size() - 4 - language.size()));
    out += key.substr(4 + language.size());
    out += static_cast<char>(e->result ? 1 : 0);
    if (!e->result) continue;
    put_u32(out, static_cast<std::uint32_t>(e->result->size()));
    for (const auto& t : *e->result) {
      out += static_cast<char>(kinds.at(t.kind));
      put_u32(out, static_cast<std::uint32_t>(t.text.size()));
    }
  }
  put_u32(out, checksum(out));
  return out;
}

}  // namespace bb::highlight::cache
