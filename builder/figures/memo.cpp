// The figure memo (memo.hpp): its file format, reading it back without trusting it, and writing it.
#include "figures/memo.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <memory>

#include "inputs/file_io.hpp"
#include "text/binary.hpp"
#include "text/digest.hpp"

namespace bb::figures {

namespace fs = std::filesystem;

namespace {

using text::put_text;
using text::put_u32;
using text::put_u64;

constexpr char kMagic[4] = {'B', 'B', 'F', 'M'};
constexpr std::uint32_t kFormat = 2;  // 2: a 64-bit checksum instead of SHA-256 (~1/20 the cost)
constexpr std::size_t kDigestBytes = 8;

FileId id_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

// "" or a cache entry's name (a SHA-256 in lower-case hex).
bool is_value(std::string_view v) {
  if (v.empty()) return true;
  if (v.size() != 64) return false;
  for (char c : v)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Neither a path nor a purpose holds a NUL byte.
std::string key_of(std::string_view path, std::string_view purpose) {
  std::string key;
  key.reserve(path.size() + 1 + purpose.size());
  key += path;
  key += '\0';
  key += purpose;
  return key;
}

// Against a damaged or truncated file; the memo is the output folder's own (text::checksum64).
std::string digest(std::string_view bytes) {
  std::string out;
  put_u64(out, text::checksum64(bytes));
  return out;
}

}  // namespace

std::optional<FileId> identify(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return id_of(st);
}

// The executable that computed the values: a rebuilt or upgraded bookbuild (whose checks or converters
// may have changed) starts afresh. "" when it cannot be examined: no memo is then used.
std::string Memo::current_stamp() {
  struct stat st {};
  if (::stat("/proc/self/exe", &st) != 0) return {};
  FileId id = id_of(st);
  return "bookbuild figure memo " + std::to_string(kFormat) + " exe " + std::to_string(id.device) + ":" +
         std::to_string(id.inode) + ":" + std::to_string(id.size) + ":" + std::to_string(id.mtime_ns);
}

Memo& Memo::of(const fs::path& cache_dir) {
  static std::mutex mutex;
  // By the folder's bytes: an fs::path key is compared component by component, several times a lookup.
  static std::map<std::string, std::unique_ptr<Memo>, std::less<>> memos;
  std::lock_guard lock(mutex);
  auto& memo = memos[cache_dir.native()];
  if (!memo) {
    fs::path file = cache_dir / "memo.bin";
    std::string stamp = current_stamp();
    memo = std::make_unique<Memo>(
        file, stamp, stamp.empty() ? std::string() : inputs::read_bounded(file, kMaxFileBytes).bytes);
  }
  return *memo;
}

Memo::Memo(fs::path file, std::string stamp, std::string_view bytes)
    : file_(std::move(file)), stamp_(std::move(stamp)) {
  if (!parse(bytes)) entries_.clear();
  // One more process has started since each entry was last used; find() makes it 0 again.
  for (auto& [key, e] : entries_) ++e.age;
}

// The layout (integers little-endian; text = u32 length, bytes):
//   "BBFM" u32 format, text stamp, u32 count,
//   count × { text path, text purpose, u64 device, u64 inode, u64 size, u64 mtime_ns, u32 age, text value },
//   u64 text::checksum64 of all the above.
bool Memo::parse(std::string_view bytes) {
  if (stamp_.empty() || bytes.size() < kDigestBytes) return false;
  std::string_view body = bytes.substr(0, bytes.size() - kDigestBytes);
  if (digest(body) != bytes.substr(body.size())) return false;
  text::ByteReader in(body);
  std::string_view magic, stamp;
  std::uint32_t format = 0, count = 0;
  if (!in.bytes(4, magic) || magic != std::string_view(kMagic, 4) || !in.u32(format) || format != kFormat ||
      !in.text(stamp) || stamp != stamp_ || !in.u32(count) || count > kMaxEntries)
    return false;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string_view path, purpose, value;
    Entry e;
    std::uint64_t mtime = 0;
    if (!in.text(path) || path.empty() || path.find('\0') != std::string_view::npos || !in.text(purpose) ||
        purpose.empty() || purpose.find('\0') != std::string_view::npos || !in.u64(e.id.device) ||
        !in.u64(e.id.inode) || !in.u64(e.id.size) || !in.u64(mtime) || !in.u32(e.age) ||
        e.age > kKeepWrites || !in.text(value) || !is_value(value))
      return false;
    e.id.mtime_ns = static_cast<std::int64_t>(mtime);
    e.value = value;
    if (!entries_.emplace(key_of(path, purpose), std::move(e)).second) return false;
  }
  return in.left() == 0;
}

std::optional<std::string> Memo::find(const fs::path& file, std::string_view purpose, const FileId& id) {
  std::lock_guard lock(mutex_);
  if (stamp_.empty()) return std::nullopt;
  auto it = entries_.find(key_of(file.native(), purpose));
  if (it == entries_.end() || it->second.id != id) return std::nullopt;
  it->second.age = 0;
  return it->second.value;
}

void Memo::put(const fs::path& file, std::string_view purpose, const FileId& id, std::string value) {
  std::lock_guard lock(mutex_);
  // A file changed in the last seconds could change again within the file system's timestamp
  // granularity (a clock tick) keeping its size and time: it is left for a later run to remember.
  if (id.mtime_ns > inputs::now_ns() - inputs::kSettledNs) return;
  const std::string& path = file.native();
  if (stamp_.empty() || !is_value(value) || path.empty() || purpose.empty() ||
      path.find('\0') != std::string::npos || purpose.find('\0') != std::string_view::npos)
    return;
  std::string key = key_of(path, purpose);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    if (it->second.id == id && it->second.value == value && it->second.age == 0) return;
  } else if (entries_.size() >= kMaxEntries) {
    return;
  }
  entries_.insert_or_assign(std::move(key), Entry{id, std::move(value), 0});
  dirty_ = true;
}

std::string Memo::serialize() const {
  std::string out(kMagic, 4);
  put_u32(out, kFormat);
  put_text(out, stamp_);
  std::uint32_t count = 0;
  for (const auto& [key, e] : entries_) count += e.age <= kKeepWrites;
  put_u32(out, count);
  for (const auto& [key, e] : entries_) {
    if (e.age > kKeepWrites) continue;
    const auto nul = key.find('\0');
    put_text(out, std::string_view(key).substr(0, nul));
    put_text(out, std::string_view(key).substr(nul + 1));
    put_u64(out, e.id.device);
    put_u64(out, e.id.inode);
    put_u64(out, e.id.size);
    put_u64(out, static_cast<std::uint64_t>(e.id.mtime_ns));
    put_u32(out, e.age);
    put_text(out, e.value);
  }
  out += digest(out);
  return out;
}

void Memo::save() {
  std::lock_guard lock(mutex_);
  if (!dirty_ || stamp_.empty()) return;
  dirty_ = false;
  std::string bytes = serialize();
  // Written aside and renamed, so that a concurrent build reads the old memo or the new, never half.
  inputs::write_atomic(file_, bytes);
}

std::size_t Memo::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace bb::figures
