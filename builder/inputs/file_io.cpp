// The owning descriptor, the bounded reader and the whole-file writer (file_io.hpp).
#include "inputs/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>

namespace bb::inputs {

namespace fs = std::filesystem;

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = other.release();
  }
  return *this;
}

bool Fd::close() {
  if (fd_ < 0) return true;
  const int fd = release();
  return ::close(fd) == 0;  // not retried on EINTR: on Linux the descriptor is gone either way
}

ReadResult read_bounded(const fs::path& file, std::size_t limit) {
  ReadResult r;
  // O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused below as not regular).
  Fd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0) return r;
  if (!S_ISREG(st.st_mode)) {
    r.status = ReadStatus::NotRegular;
    return r;
  }
  r.size = static_cast<std::uint64_t>(st.st_size);
  if (r.size > limit) {
    r.status = ReadStatus::TooLarge;
    return r;
  }
  // One byte more than the file, so that the read seeing its end needs no room of its own; a file that
  // grows meanwhile is read on, up to one byte past the limit.
  std::string bytes(static_cast<std::size_t>(r.size) + 1, '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == bytes.size()) {
      if (got > limit) {
        r.status = ReadStatus::TooLarge;
        r.size = got;
        return r;
      }
      bytes.resize(std::min(limit + 1, got + std::max<std::size_t>(4096, got / 2)));
    }
    const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      r.status = ReadStatus::Failed;
      return r;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > limit) {
    r.status = ReadStatus::TooLarge;
    r.size = got;
    return r;
  }
  bytes.resize(got);
  r.bytes = std::move(bytes);
  r.size = got;
  r.status = ReadStatus::Ok;
  return r;
}

namespace {

std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

std::string read_problem(const ReadResult& r, std::size_t limit) {
  switch (r.status) {
    case ReadStatus::Ok: return "";
    case ReadStatus::CannotOpen: return "cannot read file";
    case ReadStatus::NotRegular: return "not a regular file";
    case ReadStatus::TooLarge:
      return "the file is " + (r.size > limit ? mib(r.size) : "over the limit") + "; at most " + mib(limit) +
             " is read";
    case ReadStatus::Failed: return "cannot read file (read error)";
  }
  return "cannot read file";
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool write_atomic(const fs::path& file, std::string_view bytes) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  // A name of its own per process and call: threads of one process may write the same file at once.
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = file.parent_path() / ("." + file.filename().string() + ".tmp-" +
                                             std::to_string(::getpid()) + "-" + std::to_string(counter++));
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (!fd) return false;
  bool ok = true;
  while (ok && !bytes.empty()) {
    const ssize_t n = ::write(fd.get(), bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  ok = fd.close() && ok;
  if (ok && ::rename(tmp.c_str(), file.c_str()) == 0) return true;
  ::unlink(tmp.c_str());
  return false;
}

}  // namespace bb::inputs
