// What earlier runs learnt about image files (a file passed the image checks, its converted figure is
// cache entry X), kept in the output folder's figure cache (<out>/.cache/figures/memo.bin) under each
// file's identity, so that a figure whose file did not change is not read, checked and hashed again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace bb::figures {

// A file as the file system names it at one moment: replaced, edited or touched, it becomes another.
struct FileId {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const FileId&) const = default;
};

// The identity of a regular file (following symbolic links); nullopt for anything else or when it
// cannot be examined.
std::optional<FileId> identify(const std::filesystem::path& file);

// The memo of one cache folder. Keys are (absolute path, purpose); a value is valid while the file
// keeps the identity it had when the value was computed (taken before reading the file). Purposes in
// use: kValid (the file passed validate.hpp's checks; value ""), and a converter's settings string
// (value: the name of the cache entry converted from the file's bytes: 64 lower-case hex digits, the
// only values besides "" that the memo holds, so that a value read back cannot name another path).
class Memo {
 public:
  static constexpr std::string_view kValid = "valid";

  // The memo of `cache_dir`, read from its file on first use and shared by every thread.
  static Memo& of(const std::filesystem::path& cache_dir);

  // The memo held in `bytes` (the file's content) when it is well-formed and written by this very
  // bookbuild executable (`stamp`); otherwise an empty memo: the file is the user's to damage.
  Memo(std::filesystem::path file, std::string stamp, std::string_view bytes);

  std::optional<std::string> find(const std::filesystem::path& file, std::string_view purpose,
                                  const FileId& id);
  // Remembers `value`, unless the file was modified less than two seconds ago (see memo.cpp).
  void put(const std::filesystem::path& file, std::string_view purpose, const FileId& id, std::string value);

  // Writes the memo back (aside and renamed) when something was added since it was read or written.
  // Entries not used by this process age by one write and go after kKeepWrites. Failing to write is
  // not an error of the build.
  void save();

  // The file's bytes as save() writes them, and the stamp it expects (for tests).
  [[nodiscard]] std::string serialize() const;
  static std::string current_stamp();

  [[nodiscard]] std::size_t size() const;

  // Bounds on what is read back: a file beyond them is ignored.
  static constexpr std::size_t kMaxEntries = 1 << 16;
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
  static constexpr std::uint32_t kKeepWrites = 8;

 private:
  struct Entry {
    FileId id;
    std::string value;
    std::uint32_t age = 0;  // processes that wrote the memo since one last used the entry
  };
  bool parse(std::string_view bytes);

  mutable std::mutex mutex_;
  std::filesystem::path file_;
  std::string stamp_;
  bool dirty_ = false;
  std::map<std::string, Entry> entries_;  // path NUL purpose → entry
};

}  // namespace bb::figures
