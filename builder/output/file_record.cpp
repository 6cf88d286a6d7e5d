// The record of an output folder's files (file_record.hpp): trusting it, its file format, reading it
// back without trusting the bytes, and writing it.
#include "output/file_record.hpp"

#include <nettle/umac.h>
#include <sys/stat.h>

#include "inputs/file_io.hpp"
#include "output/staging.hpp"
#include "text/binary.hpp"
#include "text/digest.hpp"

namespace bb::output {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[4] = {'B', 'B', 'O', 'F'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kDigestBytes = UMAC128_DIGEST_SIZE;

FileIdentity identity_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
          static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec};
}

// UMAC-128 (RFC 4418, GNU Nettle) under a fixed key, used as a 128-bit hash of the page: for bytes
// chosen without knowing the key, two different pages share a tag with a probability of ~2^-120 (the
// caches' text::checksum64 spreads a change of a word's high bits over few bits of the next step, and
// a collision here would silently keep a stale page). SHA-256 would do as well, at five times the
// cost: ~2.5 ms per warm build of the real-size edition, as much as the reads saved (benchmarks.md).
// The key is public: whoever crafts a collision could as well write the page itself.
std::string digest_of(std::string_view bytes) {
  static const umac128_ctx keyed = [] {
    static constexpr std::uint8_t key[UMAC_KEY_SIZE] = {'b', 'o', 'o', 'k', 'b', 'u', 'i', 'l',
                                                        'd', ' ', 'p', 'a', 'g', 'e', 's', '1'};
    umac128_ctx ctx;
    umac128_set_key(&ctx, key);
    return ctx;
  }();
  static constexpr std::uint8_t nonce[UMAC_MAX_NONCE_SIZE] = {};
  umac128_ctx ctx = keyed;  // keyed once: the key schedule costs more than hashing a page
  umac128_set_nonce(&ctx, sizeof nonce, nonce);
  umac128_update(&ctx, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::string out(UMAC128_DIGEST_SIZE, '\0');
  umac128_digest(&ctx, out.size(), reinterpret_cast<std::uint8_t*>(out.data()));
  return out;
}

// Against a damaged or truncated file (the record is the output folder's own, not a defence against
// someone who can write there: they can change the pages themselves).
std::uint64_t checksum_of(std::string_view body) {
  return text::checksum64(body);
}

}  // namespace

fs::path FileRecord::record_file(const fs::path& folder) {
  return cache_dir(folder.parent_path()) / (folder.filename().string() + "-files.bin");
}

FileRecord::FileRecord(fs::path folder, std::int64_t settled_ns)
    : folder_(std::move(folder)), file_(record_file(folder_)), settled_ns_(settled_ns) {
  if (!parse(inputs::read_bounded(file_, kMaxFileBytes).bytes)) entries_.clear();
}

bool FileRecord::holds(const std::string& rel, std::string_view bytes) {
  const fs::path file = folder_ / rel;
  // The clock before the lstat: a change after the lstat gets a ctime no earlier than this (less the
  // clock's tick, well under kSettledNs).
  const std::int64_t now = inputs::now_ns();
  struct stat st {};
  auto entry = entries_.find(rel);
  if (entry != entries_.end()) entry->second.asked = true;
  auto forget = [&] {
    if (entry == entries_.end()) return;
    entries_.erase(entry);
    dirty_ = true;
  };
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uintmax_t>(st.st_size) != bytes.size()) {
    forget();
    return false;
  }
  const FileIdentity id = identity_of(st);
  std::string digest;  // of `bytes`, computed only where it is compared or kept
  if (entry != entries_.end() && entry->second.id == id) {
    digest = digest_of(bytes);
    if (entry->second.digest == digest) {
      ++trusted_;
      return true;
    }
  }
  ++read_;
  if (!reads_as(file, bytes)) {
    forget();
    return false;
  }
  // The bytes were read after the identity was taken: a file changed since has another identity.
  if (dropped_) return true;  // nothing will be saved
  if (id.ctime_ns >= now - settled_ns_ || id.mtime_ns >= now - settled_ns_) {
    forget();
    return true;
  }
  if (digest.empty()) digest = digest_of(bytes);
  if (entry == entries_.end()) {
    if (entries_.size() < kMaxEntries) {
      entries_.emplace(rel, Entry{id, digest, true});
      dirty_ = true;
    }
  } else {
    entry->second.id = id;
    entry->second.digest = digest;
    dirty_ = true;
  }
  return true;
}

void FileRecord::drop() {
  dropped_ = true;
  std::error_code ec;
  fs::remove(file_, ec);
}

// The layout (integers little-endian; text = u32 length, bytes):
//   "BBOF" u32 format, u32 count,
//   count × { text path, u64 device, u64 inode, u64 size, u64 mtime_ns, u64 ctime_ns, 16 bytes UMAC-128 },
//   u64 text::checksum64 of all the above.
std::string FileRecord::serialize() const {
  std::string out(kMagic, 4);
  text::put_u32(out, kFormat);
  std::uint32_t count = 0;
  for (const auto& [rel, e] : entries_) count += e.asked;
  text::put_u32(out, count);
  for (const auto& [rel, e] : entries_) {
    if (!e.asked) continue;
    text::put_text(out, rel);
    text::put_u64(out, e.id.device);
    text::put_u64(out, e.id.inode);
    text::put_u64(out, e.id.size);
    text::put_u64(out, static_cast<std::uint64_t>(e.id.mtime_ns));
    text::put_u64(out, static_cast<std::uint64_t>(e.id.ctime_ns));
    out += e.digest;
  }
  text::put_u64(out, checksum_of(out));
  return out;
}

bool FileRecord::parse(std::string_view bytes) {
  if (bytes.size() < 8) return false;
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  text::ByteReader sum(bytes.substr(body.size()));
  std::uint64_t expected = 0;
  if (!sum.u64(expected) || expected != checksum_of(body)) return false;
  text::ByteReader in(body);
  std::string_view magic;
  std::uint32_t format = 0, count = 0;
  if (!in.bytes(4, magic) || magic != std::string_view(kMagic, 4) || !in.u32(format) || format != kFormat ||
      !in.u32(count) || count > kMaxEntries)
    return false;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string_view rel, digest;
    Entry e;
    std::uint64_t mtime = 0, ctime = 0;
    if (!in.text(rel) || rel.empty() || !in.u64(e.id.device) || !in.u64(e.id.inode) || !in.u64(e.id.size) ||
        !in.u64(mtime) || !in.u64(ctime) || !in.bytes(kDigestBytes, digest))
      return false;
    e.id.mtime_ns = static_cast<std::int64_t>(mtime);
    e.id.ctime_ns = static_cast<std::int64_t>(ctime);
    e.digest = digest;
    if (!entries_.emplace(std::string(rel), std::move(e)).second) return false;
  }
  return in.left() == 0;
}

void FileRecord::save() {
  if (dropped_) return;
  bool unasked = false;
  for (const auto& [rel, e] : entries_) unasked = unasked || !e.asked;
  if (!dirty_ && !unasked) return;
  dirty_ = false;
  // Written aside and renamed (inputs::write_atomic): a concurrent build reads the old record or the
  // new, never half of one.
  inputs::write_atomic(file_, serialize());
}

}  // namespace bb::output
