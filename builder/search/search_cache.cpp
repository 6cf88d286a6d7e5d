// The search index cache (search_cache.hpp). One file per edition, <out>/.cache/search/<id>.idx:
//   "bookbuild-search-cache 1\n" key "\n" sections index_bytes largest_query_bytes files "\n"
//   then per file: name_size content_size "\n" name content
#include "search/search_cache.hpp"

#include <unicode/uversion.h>
#include <zlib.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "output/staging.hpp"
#include "text/digest.hpp"

namespace bb::search {

namespace fs = std::filesystem;

namespace {

// Bump when build_search_index writes different bytes for the same sections. (The key's own form
// changed with 2: the text goes in as checksums; older keys simply miss.)
constexpr std::string_view kFormat = "bookbuild search index 2";
constexpr std::string_view kMagic = "bookbuild-search-cache 1\n";

fs::path entry_path(const fs::path& dir, const std::string& edition) {
  // Edition ids come from book.toml: hashed, so that no id can name a path.
  return dir / (text::sha256_hex(edition).substr(0, 24) + ".idx");
}

// File names the index writer gives (docs.json, p3.json.gz, ...): one plain component.
bool plain_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

// Reads a decimal number followed by `end`, advancing `at`.
bool number(std::string_view data, std::size_t& at, char end, std::size_t& value) {
  auto [ptr, ec] = std::from_chars(data.data() + at, data.data() + data.size(), value);
  if (ec != std::errc{} || ptr == data.data() + data.size() || *ptr != end) return false;
  at = static_cast<std::size_t>(ptr - data.data()) + 1;
  return true;
}

}  // namespace

std::string search_index_key(const std::vector<SearchSection>& sections, const std::string& lang,
                             std::string_view tool) {
  text::Sha256 h;
  h.field(kFormat).field(tool).field(U_ICU_VERSION).field(zlibVersion()).field(lang);
  SearchIndexOptions defaults;
  h.field(std::to_string(defaults.shard_bytes)).field(std::to_string(defaults.chunk_bytes));
  h.field(std::to_string(sections.size()));
  // The sections' text (megabytes for a book) goes in as a 128-bit checksum per field, two lanes of
  // text::checksum64: SHA-256 over all of it was a quarter of a warm site build (~28 M instructions
  // on the corpus). A key, not a defence: text that collided in both lanes would keep a stale index,
  // which only its author could arrange and only to their own loss.
  auto digest = [&h](std::string_view field) {
    char lanes[40];
    std::snprintf(lanes, sizeof lanes, "%016llx%016llx",
                  static_cast<unsigned long long>(text::checksum64(field)),
                  static_cast<unsigned long long>(text::checksum64(field, 0x13198A2E03707344ULL)));
    h.field(std::string_view(lanes, 32));
  };
  for (const auto& s : sections) {
    h.field(s.page).field(s.anchor).field(s.title).field(s.chapter);
    digest(s.text);
  }
  return h.hex_digest();
}

std::optional<BuiltIndex> load_search_index(const fs::path& dir, const std::string& edition,
                                            const std::string& key) {
  std::ifstream in(entry_path(dir, edition), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  std::string_view view(data);
  std::string head = std::string(kMagic) + key + '\n';
  if (!view.starts_with(head)) return std::nullopt;
  std::size_t at = head.size();
  BuiltIndex index;
  std::size_t count = 0;
  if (!number(view, at, ' ', index.stats.sections) || !number(view, at, ' ', index.stats.index_bytes) ||
      !number(view, at, ' ', index.stats.largest_query_bytes) || !number(view, at, '\n', count))
    return std::nullopt;
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t name_size = 0;
    std::size_t size = 0;
    if (!number(view, at, ' ', name_size) || !number(view, at, '\n', size)) return std::nullopt;
    if (name_size > view.size() - at || size > view.size() - at - name_size) return std::nullopt;
    std::string name(view.substr(at, name_size));
    if (!plain_name(name) || index.files.count(name)) return std::nullopt;
    index.files.emplace(std::move(name), std::string(view.substr(at + name_size, size)));
    at += name_size + size;
    total += size;
  }
  if (at != view.size() || total != index.stats.index_bytes) return std::nullopt;
  index.stats.files = count;
  return index;
}

void store_search_index(const fs::path& dir, const std::string& edition, const std::string& key,
                        const BuiltIndex& index) {
  std::string data(kMagic);
  data += key + '\n';
  data += std::to_string(index.stats.sections) + ' ' + std::to_string(index.stats.index_bytes) + ' ' +
          std::to_string(index.stats.largest_query_bytes) + ' ' + std::to_string(index.files.size()) + '\n';
  for (const auto& [name, bytes] : index.files) {
    data += std::to_string(name.size()) + ' ' + std::to_string(bytes.size()) + '\n';
    data += name;
    data += bytes;
  }
  try {
    fs::create_directories(dir);
    output::write_file_atomic(entry_path(dir, edition), data);
  } catch (const std::exception&) {
    // A read-only or full cache folder costs the next run the index's time, nothing else.
  }
}

}  // namespace bb::search
