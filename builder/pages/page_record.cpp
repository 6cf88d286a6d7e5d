// The print page record: the .aux lines, the record file and its staleness checks.
#include "pages/page_record.hpp"

#include <cstdio>
#include <set>

#include "inputs/file_io.hpp"
#include "output/staging.hpp"
#include "text/digest.hpp"

namespace bb::pages {

namespace fs = std::filesystem;

std::string block_id(std::string_view chapter, std::size_t index) {
  return std::string(chapter) + "." + std::to_string(index);
}

namespace {

// The text between the braces at `at` (which holds '{'), with nested braces; nullopt when unclosed.
std::optional<std::string_view> braced(std::string_view s, std::size_t& at) {
  if (at >= s.size() || s[at] != '{') return std::nullopt;
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    if (s[i] == '{') ++depth;
    if (s[i] == '}' && --depth == 0) {
      std::string_view inside = s.substr(at + 1, i - at - 1);
      at = i + 1;
      return inside;
    }
  }
  return std::nullopt;
}

// A page label or block id safe to keep on one line of the record: no spaces, no control characters.
bool plain_token(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (unsigned char c : s)
    if (c <= ' ' || c == 0x7f) return false;
  return true;
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::optional<std::uint64_t> parse_hex(std::string_view s) {
  if (s.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<std::uint64_t>(d);
  }
  return v;
}

// The whole file when it holds at most `limit` bytes, else "" (an absent record or PDF is no record).
std::string read_file(const fs::path& file, std::size_t limit) {
  auto read = inputs::read_bounded(file, limit);
  return read.ok() ? std::move(read.bytes) : std::string();
}
constexpr std::size_t kMaxRecordBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxPdfBytes = std::size_t{4} << 30;

}  // namespace

BlockPages parse_aux(std::string_view aux) {
  static constexpr std::string_view kMacro = "\\bbblockpage";
  BlockPages pages;
  std::set<std::string, std::less<>> seen;
  for (std::size_t at = aux.find(kMacro); at != std::string_view::npos; at = aux.find(kMacro, at)) {
    at += kMacro.size();
    auto id = braced(aux, at);
    auto page = id ? braced(aux, at) : std::nullopt;
    if (!page || !plain_token(*id) || !plain_token(*page)) continue;
    if (seen.emplace(*id).second) pages.emplace_back(*id, *page);
  }
  return pages;
}

std::uint64_t blocks_digest(const std::vector<std::pair<std::string, const doc::Node*>>& chapters) {
  std::string all;
  for (const auto& [key, root] : chapters) {
    all += key + "\n";
    for (const auto& b : root->children)
      all += std::to_string(static_cast<int>(b.kind)) + " " + doc::plain_text(b) + "\n";
  }
  return text::checksum64(all);
}

std::string format_record(const PageRecord& record) {
  std::string out = "bookbuild pages 1\npdf " + hex(record.pdf) + "\nblocks " + hex(record.blocks) + "\n";
  for (const auto& [id, page] : record.pages) out += id + " " + page + "\n";
  return out;
}

std::optional<PageRecord> parse_record(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) return std::nullopt;  // cut short
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (lines.size() < 3 || lines[0] != "bookbuild pages 1" || !lines[1].starts_with("pdf ") ||
      !lines[2].starts_with("blocks "))
    return std::nullopt;
  auto pdf = parse_hex(lines[1].substr(4));
  auto blocks = parse_hex(lines[2].substr(7));
  if (!pdf || !blocks) return std::nullopt;
  PageRecord r{*pdf, *blocks, {}};
  for (std::size_t i = 3; i < lines.size(); ++i) {
    std::size_t space = lines[i].find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    std::string_view id = lines[i].substr(0, space), page = lines[i].substr(space + 1);
    if (!plain_token(id) || !plain_token(page)) return std::nullopt;
    r.pages.emplace_back(id, page);
  }
  return r;
}

fs::path record_path(const fs::path& cache, std::string_view edition) {
  return cache / "pdf" / (std::string(edition) + ".pages");
}

void save_record(const fs::path& file, const PageRecord& record) {
  fs::create_directories(file.parent_path());
  output::write_file_atomic(file, format_record(record));
}

namespace {

// valid_record, with the blocks' digest asked for only once a record has been read.
template <typename Blocks>
std::optional<PageRecord> valid_record_of(const fs::path& file, const fs::path& pdf, Blocks blocks) {
  auto record = parse_record(read_file(file, kMaxRecordBytes));
  if (!record || record->blocks != blocks()) return std::nullopt;
  std::error_code ec;
  if (!fs::is_regular_file(pdf, ec)) return std::nullopt;
  if (text::checksum64(read_file(pdf, kMaxPdfBytes)) != record->pdf) return std::nullopt;
  return record;
}

}  // namespace

std::optional<PageRecord> valid_record(const fs::path& file, const fs::path& pdf, std::uint64_t blocks) {
  return valid_record_of(file, pdf, [&] { return blocks; });
}

std::optional<PageRecord> valid_record(
    const fs::path& file, const fs::path& pdf,
    const std::vector<std::pair<std::string, const doc::Node*>>& chapters) {
  return valid_record_of(file, pdf, [&] { return blocks_digest(chapters); });
}

}  // namespace bb::pages
