// Files in and out, one way for the whole tool: an owning file descriptor; a reader that takes the whole
// of a regular file only up to a limit (a book's files are untrusted: a huge, growing or special file
// must not exhaust memory or block); and a writer that puts a file in place whole (written beside it,
// then renamed, so that a concurrent reader sees the old bytes or the new, never half).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace bb::inputs {

// An open file descriptor, closed when it goes out of scope. Move-only.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { close(); }

  [[nodiscard]] int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  // Gives the descriptor up without closing it.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes now; false when closing failed (a write error can surface only here). Closing twice is a no-op.
  bool close();

 private:
  int fd_ = -1;
};

enum class ReadStatus {
  Ok,
  CannotOpen,  // missing, or not readable
  NotRegular,  // a directory, a pipe, a device: never read (it could block or never end)
  TooLarge,    // over the limit, at open or while it was read (it grew)
  Failed,      // a read error
};

struct ReadResult {
  ReadStatus status = ReadStatus::CannotOpen;
  std::string bytes;       // the whole file when status is Ok; empty otherwise
  std::uint64_t size = 0;  // the size seen (for TooLarge: at least the limit + 1)
  [[nodiscard]] bool ok() const { return status == ReadStatus::Ok; }
};

// The whole of the regular file `file` (symbolic links followed), when it holds at most `limit` bytes.
ReadResult read_bounded(const std::filesystem::path& file, std::size_t limit);

// "cannot read file", "not a regular file", "the file is 9.0 MiB; at most 8.0 MiB is read": what a
// located diagnostic says about a read that was not Ok.
std::string read_problem(const ReadResult& r, std::size_t limit);

// Writes `bytes` to `file` whole: into a new file beside it (its folder created if need be), then
// renamed over it. False, and nothing left behind, when any step fails.
bool write_atomic(const std::filesystem::path& file, std::string_view bytes);

// The caches that trust a file by its identity (size, times, inode) do not trust one changed within
// kSettledNs of the moment they look: it could change again within the file system's timestamp
// granularity keeping that identity (git's "racy clean" files). Used by the run record, the figure
// memo and the site's file record.
inline constexpr std::int64_t kSettledNs = 2'000'000'000;
// The wall clock, in nanoseconds since the epoch (what file times are compared against).
std::int64_t now_ns();

}  // namespace bb::inputs
