// What the last builds of an output folder know about its files, so that a rebuild can tell an
// unchanged file from its identity alone, without reading it back (output::holds reads every file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "inputs/file_io.hpp"

namespace bb::output {

// A file as lstat names it. Any write to the file changes its ctime (touch -r restores the mtime,
// never the ctime), and so does a new link to it or an unlink of one of its names.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The record of one folder, kept in `<parent>/.cache/<name>-files.bin`: for each file (by its path
// relative to the folder) the identity it had when a build last knew its bytes, and a 128-bit hash of
// those bytes (UMAC-128 under a fixed key, file_record.cpp). An entry is trusted only while the file
// keeps that identity; a file whose ctime was within kSettledNs of the moment it was examined is not
// recorded (it could be changed again within the file system's timestamp granularity without its
// identity changing: git's "racy clean" files). Damaged, truncated or of another format, the record is
// ignored. Not shared between threads.
class FileRecord {
 public:
  // The record of `folder`, read from record_file(folder). `settled_ns` is for tests.
  explicit FileRecord(std::filesystem::path folder, std::int64_t settled_ns = kSettledNs);

  // Whether `folder/rel` is a regular file (not a symbolic link) holding exactly `bytes`, as
  // output::holds says, but without reading it when the record vouches for it: one lstat.
  bool holds(const std::string& rel, std::string_view bytes);

  // The folder's files are about to be linked again or replaced (a staged folder swapped in), which
  // changes the identity of every one: the record file is removed now, before any is, and save()
  // writes nothing. holds() still answers for the files not yet touched.
  void drop();

  // Writes the record back (aside and renamed) when it changed, keeping only the files asked about
  // since it was read. Failing to write is not an error of the build.
  void save();

  // Files holds() read back since construction, and files it vouched for without reading (tests,
  // measurements).
  [[nodiscard]] std::size_t files_read() const { return read_; }
  [[nodiscard]] std::size_t files_trusted() const { return trusted_; }

  static std::filesystem::path record_file(const std::filesystem::path& folder);
  // The file's bytes as save() writes them.
  [[nodiscard]] std::string serialize() const;

  static constexpr std::int64_t kSettledNs = inputs::kSettledNs;
  static constexpr std::size_t kMaxEntries = 1 << 18;
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;

 private:
  struct Entry {
    FileIdentity id;
    std::string digest;  // UMAC-128, 16 bytes
    bool asked = false;  // holds() was called for it in this process
  };
  bool parse(std::string_view bytes);

  std::filesystem::path folder_;
  std::filesystem::path file_;
  std::int64_t settled_ns_;
  std::map<std::string, Entry, std::less<>> entries_;
  bool dirty_ = false;
  bool dropped_ = false;
  std::size_t read_ = 0;
  std::size_t trusted_ = 0;
};

}  // namespace bb::output
