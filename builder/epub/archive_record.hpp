// The earlier archive: what the last build wrote of each EPUB, so that the next build reuses its
// deflate streams and leaves it alone when its bytes come out the same. Building an EPUB's entries is
// epub.cpp's; this unit only remembers and recognises (see archive_record.cpp for the rules).
#pragma once
#include <ctime>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "epub/epub.hpp"

namespace bb::epub {

struct EarlierArchive {
  std::string bytes;              // "" = none to offer
  std::string body;               // the record after its head: the time line, then the entry lines
  std::set<std::string> entries;  // the record's entry lines, as entry_line() writes them
};

// The EPUB at `epub` as the record in `archive_cache` describes it; none (bytes "") when there is no
// record, or the EPUB, the ZIP module or the record changed since it was written.
EarlierArchive earlier_archive(const std::filesystem::path& archive_cache, const std::filesystem::path& epub);

// The record's line for the time stamped on every entry, and one entry's line:
// "<size> <checksum, 16 hex digits> <d: deflated, s: stored> <name>".
std::string modified_line(std::time_t modified);
std::string entry_line(const EpubFile& f);

// Records the EPUB just written at `epub` with `bytes`, its entries listed by `entries` (the
// modified line, then entry lines). Losing a record costs the next build time, not results: a
// failure is silent.
void write_archive_record(const std::filesystem::path& archive_cache, const std::filesystem::path& epub,
                          std::string_view bytes, const std::string& entries);

}  // namespace bb::epub
