// Staged output directories and atomic file writes.
#include "output/staging.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>

#include "diag/diagnostics.hpp"

namespace bb::output {

namespace fs = std::filesystem;

namespace {

fs::path sibling(const fs::path& target, std::string_view tag) {
  return target.parent_path() /
         ("." + target.filename().string() + "." + std::string(tag) + "-" + std::to_string(getpid()));
}

// True when no process has this id any more (a build that was killed); a live process, ours or
// another build running at the same time, keeps its temporary files.
bool dead(std::string_view pid_text) {
  if (pid_text.empty() || pid_text.size() > 9 ||
      pid_text.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  pid_t pid = static_cast<pid_t>(std::stoi(std::string(pid_text)));
  return pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH;
}

// Writes a whole file; on any failure the partial file is removed and a FatalError names the cause
// and `shown` (the file the user asked for, not the temporary file being written).
void write_whole(const fs::path& path, std::string_view content, const fs::path& shown) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw FatalError("cannot write " + shown.string() + ": " + std::strerror(errno));
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) {
    int err = errno;
    std::error_code ec;
    fs::remove(path, ec);
    throw FatalError("cannot write " + shown.string() + ": " + (err ? std::strerror(err) : "write failed"));
  }
}

}  // namespace

namespace {

// Removes, in `dir`, the temporary siblings of `name` (every name when `name` is empty) that dead
// processes left.
void remove_stale(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    // `.<name>.<tag>-<pid>`: the name may hold dots, the pid does not.
    const std::string file = it->path().filename().string();
    const std::size_t dot = file.rfind('.');
    if (file.front() != '.' || dot == 0) continue;
    if (!name.empty() && std::string_view(file).substr(1, dot - 1) != name) continue;
    const std::string_view rest = std::string_view(file).substr(dot + 1);
    for (std::string_view tag : {"tmp-", "old-"}) {
      if (!rest.starts_with(tag)) continue;
      std::error_code rm;
      if (dead(rest.substr(tag.size()))) fs::remove_all(it->path(), rm);
    }
  }
}

// What a killed build left in a folder is removed on the first write into it, for every file at
// once; later writes in this process skip the listing. Listing the folder on every write made n
// writes into one folder cost n² entries read, and under `site --serve` each edit paid for a listing
// of the whole edition's folder. A build killed while this process runs leaves its files to the next.
void remove_stale_once(const fs::path& dir) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  {
    std::lock_guard lock(mutex);
    if (!swept.insert(dir.native()).second) return;
  }
  remove_stale(dir, {});
}

}  // namespace

void remove_stale_siblings(const fs::path& target) {
  remove_stale(target.parent_path(), target.filename().string());
}

void create_output_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw FatalError("cannot create the output folder " + dir.string() + ": " + ec.message());
}

StagedDir::StagedDir(fs::path target) : target_(std::move(target)), tmp_(sibling(target_, "tmp")) {
  for (fs::path p = target_.parent_path(); !p.empty() && !fs::exists(p); p = p.parent_path()) {
    created_.push_back(p);
    if (p == p.parent_path()) break;
  }
  create_output_dir(target_.parent_path());
  remove_stale_siblings(target_);
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  if (!fs::create_directories(tmp_, ec) && ec)
    throw FatalError("cannot create " + tmp_.string() + ": " + ec.message());
}

StagedDir::~StagedDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(tmp_, ec);
  // A failed build leaves the output as it found it: the folders it made for itself go too (only if
  // empty: another edition's staged output may be there).
  for (const auto& p : created_) fs::remove(p, ec);
}

void StagedDir::commit() {
  std::error_code ec;
  fs::path old = sibling(target_, "old");
  fs::remove_all(old, ec);
  bool had = fs::exists(target_);
  if (had) {
    fs::rename(target_, old, ec);
    if (ec) throw FatalError("cannot move aside " + target_.string() + ": " + ec.message());
  }
  fs::rename(tmp_, target_, ec);
  if (ec) {
    if (had) fs::rename(old, target_);  // put the previous output back
    throw FatalError("cannot move " + tmp_.string() + " into place: " + ec.message());
  }
  committed_ = true;
  if (had) fs::remove_all(old, ec);
}

void write_file(const fs::path& path, std::string_view content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  write_whole(path, content, path);
}

void link_or_copy(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_hard_link(from, to, ec);
  if (!ec) return;
  // `to` exists (another build's file, or a link to `from` itself, which copy_file refuses to
  // overwrite) or no link can be made: a link or a copy beside it, renamed over it, replaces it whole.
  const fs::path tmp = sibling(to, "tmp");
  fs::remove(tmp, ec);
  fs::create_hard_link(from, tmp, ec);
  if (ec) {
    try {
      fs::copy_file(from, tmp, fs::copy_options::overwrite_existing);
    } catch (...) {
      fs::remove(tmp, ec);
      throw;
    }
  }
  fs::rename(tmp, to, ec);
  if (ec) {
    std::error_code rm;
    fs::remove(tmp, rm);
    throw fs::filesystem_error("cannot replace the file", from, to, ec);
  }
}

bool holds(const fs::path& file, std::string_view bytes) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uintmax_t>(st.st_size) != bytes.size())
    return false;
  return reads_as(file, bytes);
}

bool reads_as(const fs::path& file, std::string_view bytes) {
  // Compared a block at a time, in a buffer left unzeroed: a whole-file string was zeroed, then
  // filled, for every page of every rebuild. As before, the size lstat gave is what is compared.
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const std::size_t size = std::min<std::size_t>(bytes.size(), std::size_t{1} << 20);
  auto block = std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(size, 1));
  std::size_t at = 0;
  bool same = true;
  while (same && at < bytes.size()) {
    const ssize_t n = ::read(fd, block.get(), std::min(size, bytes.size() - at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const auto got = static_cast<std::size_t>(n);
    same = std::memcmp(block.get(), bytes.data() + at, got) == 0;
    at += got;
  }
  ::close(fd);
  return same && at == bytes.size();
}

void write_file_atomic(const fs::path& target, std::string_view content) {
  create_output_dir(target.parent_path());
  remove_stale_once(target.parent_path());
  fs::path tmp = sibling(target, "tmp");
  write_whole(tmp, content, target);
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw FatalError("cannot write " + target.string() + ": " + ec.message());
  }
}

}  // namespace bb::output
