// ZIP archives through libzip, in a module loaded on first use (zip_module.h): an archive written in
// memory, and one read back from bytes.
#pragma once

#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct bookbuild_zip_reader;
struct bookbuild_zip_functions;

namespace bb::epub {

// Builds a ZIP archive in memory. Entries are written in the order they are added, each with the
// same fixed timestamp and permissions, so that the same entries always give the same bytes.
class ZipWriter {
 public:
  ZipWriter() = default;
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Adds an entry; `compress` = deflate, else stored (as the EPUB's `mimetype` must be); `unchanged`:
  // the caller knows the bytes to be those of the entry of this name in finish()'s `earlier` archive.
  void add(const std::string& name, std::string data, bool compress, bool unchanged = false);
  // Deflates the entries (in parallel), closes the archive and returns its bytes. Timestamps are
  // `mtime` as an MS-DOS UTC date. `earlier`: the bytes of an archive written before by this module
  // (or empty), whose deflate streams are reused for the entries added as unchanged (when the earlier
  // entry's size and CRC-32 agree). Throws FatalError when the module cannot be loaded or libzip fails.
  std::string finish(std::time_t mtime, std::string_view earlier = {});

 private:
  struct Pending {
    std::string name;
    std::string data;
    bool compress;
    bool unchanged;
  };
  std::vector<Pending> pending_;  // added to the archive, in order, by finish()
};

struct ZipEntryInfo {
  std::string name;
  bool stored = false;  // no compression
  std::uint64_t size = 0;
};

// Reads an archive from its bytes (kept by the reader).
class ZipReader {
 public:
  // Returns nullopt and sets `error` when the bytes are not a consistent ZIP archive (or the module
  // cannot be loaded).
  static std::optional<ZipReader> open(std::string bytes, std::string& error);
  ZipReader(ZipReader&& other) noexcept;
  ZipReader& operator=(ZipReader&&) = delete;
  ZipReader(const ZipReader&) = delete;
  ~ZipReader();

  [[nodiscard]] const std::vector<ZipEntryInfo>& entries() const { return entries_; }
  [[nodiscard]] bool contains(std::string_view name) const;
  // The uncompressed content of an entry, or nullopt when there is none by that name.
  [[nodiscard]] std::optional<std::string> read(std::string_view name) const;
  [[nodiscard]] const std::string& bytes() const { return *bytes_; }

 private:
  ZipReader() = default;
  std::unique_ptr<std::string> bytes_;
  const bookbuild_zip_functions* zip_ = nullptr;  // the module's, found when the archive was opened
  bookbuild_zip_reader* archive_ = nullptr;
  std::vector<ZipEntryInfo> entries_;
};

}  // namespace bb::epub
