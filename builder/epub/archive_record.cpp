// The earlier archive (archive_record.hpp).
#include "epub/archive_record.hpp"

#include <cstdio>

#include "figures/figures.hpp"
#include "inputs/file_io.hpp"
#include "modules/modules.hpp"
#include "output/staging.hpp"
#include "text/digest.hpp"

namespace bb::epub {

namespace fs = std::filesystem;

namespace {

// The earlier archive. Deflating the text is most of an EPUB's cost, and a warm build's entries are
// mostly the bytes they were. <archive_cache>/<name>.id records, after each EPUB is written, the ZIP
// module's and the EPUB's identities (device, inode, size, modification time), the EPUB's
// text::checksum64, and each entry's size and checksum. The next build offers that EPUB to the ZIP module,
// marking the entries whose size and checksum are unchanged; the module keeps their deflate streams when the
// earlier entry's size and CRC-32 agree too (so a stream is reused only for bytes that match on size, a
// 64-bit checksum and a CRC-32). Only an EPUB this very module wrote and nobody touched since is offered:
// another zlib or level would compress the same bytes differently, and a warm build must give the
// same bytes as a clean one. An EPUB that comes out byte for byte as it was is not written again.
// When every entry is as it was (name, order, size, checksum, stored or deflated) and so is the time
// stamped on the entries, the module would write that EPUB again, stream for stream: the earlier bytes
// are taken as they are, and the module is not even loaded (its libraries are ~10% of a warm run).
constexpr std::size_t kMaxEarlierBytes = std::size_t{256} << 20;
constexpr std::size_t kMaxRecordBytes = std::size_t{16} << 20;

// A regular file's identity (figures::identify) as text; "" when it cannot be examined.
std::string identity_of(const fs::path& file) {
  const auto id = figures::identify(file);
  if (!id) return {};
  return std::to_string(id->device) + ":" + std::to_string(id->inode) + ":" + std::to_string(id->size) + ":" +
         std::to_string(id->mtime_ns);
}

// The record's head for the EPUB at `epub` as it is now, holding `bytes`; "" when either file cannot
// be examined. The bytes' checksum catches what the identity cannot: a file changed in place with
// its size and time kept.
std::string record_head(const fs::path& epub, std::string_view bytes) {
  const std::string module = identity_of(modules::module_path(modules::Module::Zip));
  const std::string archive = identity_of(epub);
  if (module.empty() || archive.empty()) return {};
  char sum[24];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(text::checksum64(bytes)));
  return "bookbuild epub archive 2\nzip module " + module + "\narchive " + archive + " " + sum + "\n";
}

fs::path record_file(const fs::path& archive_cache, const fs::path& epub) {
  return archive_cache / (epub.filename().string() + ".id");
}

std::string read_at_most(const fs::path& file, std::size_t limit) {
  auto read = inputs::read_bounded(file, limit);
  return read.ok() ? std::move(read.bytes) : std::string();
}

}  // namespace

// The record's line for the time stamped on every entry.
std::string modified_line(std::time_t modified) {
  return "modified " + std::to_string(modified) + "\n";
}

EarlierArchive earlier_archive(const fs::path& archive_cache, const fs::path& epub) {
  EarlierArchive earlier;
  if (archive_cache.empty()) return earlier;
  const std::string record = read_at_most(record_file(archive_cache, epub), kMaxRecordBytes);
  if (record.empty()) return earlier;
  std::string bytes = read_at_most(epub, kMaxEarlierBytes);
  const std::string head = bytes.empty() ? std::string() : record_head(epub, bytes);
  if (head.empty() || !record.starts_with(head)) return earlier;
  const std::size_t first = record.find('\n', head.size());
  if (first == std::string::npos || !std::string_view(record).substr(head.size()).starts_with("modified "))
    return earlier;
  for (std::size_t at = first + 1; at < record.size();) {
    std::size_t end = record.find('\n', at);
    if (end == std::string::npos) return earlier;  // cut short: not a record this build wrote
    earlier.entries.emplace(record, at, end + 1 - at);
    at = end + 1;
  }
  earlier.body = record.substr(head.size());
  earlier.bytes = std::move(bytes);
  return earlier;
}

std::string entry_line(const EpubFile& f) {
  char head[48];
  std::snprintf(head, sizeof head, "%zu %016llx %c ", f.data.size(),
                static_cast<unsigned long long>(text::checksum64(f.data)), f.compress ? 'd' : 's');
  return head + f.name + "\n";
}

void write_archive_record(const fs::path& archive_cache, const fs::path& epub, std::string_view bytes,
                          const std::string& entries) {
  try {
    const std::string head = record_head(epub, bytes);
    if (!head.empty()) output::write_file_atomic(record_file(archive_cache, epub), head + entries);
  } catch (const FatalError&) {
  }
}

}  // namespace bb::epub
