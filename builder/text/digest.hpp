// Message digests (GNU Nettle): SHA-256 names cache entries and calc artifacts, SHA-1 the EPUB's
// name-based UUID; and a fast checksum for the caches' own files. Header-only, so that the standalone calc
// library can use it without the rest of builder/text; Nettle is linked statically where Debian ships its
// archive (cmake/Dependencies.cmake), which spares every run the loading of a shared crypto library.
#pragma once

#include <nettle/sha1.h>
#include <nettle/sha2.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace bb::text {

inline std::string hex(const std::uint8_t* bytes, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  return out;
}

// One Nettle hash over `data`: its context type, digest size and three functions.
template <typename Context, std::size_t Size>
std::array<std::uint8_t, Size> nettle_digest(void (*init)(Context*),
                                             void (*update)(Context*, std::size_t, const std::uint8_t*),
                                             void (*digest)(Context*, std::size_t, std::uint8_t*),
                                             std::string_view data) {
  Context ctx;
  init(&ctx);
  update(&ctx, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
  std::array<std::uint8_t, Size> out{};
  digest(&ctx, out.size(), out.data());
  return out;
}

inline std::array<std::uint8_t, SHA256_DIGEST_SIZE> sha256(std::string_view data) {
  return nettle_digest<sha256_ctx, SHA256_DIGEST_SIZE>(sha256_init, sha256_update, sha256_digest, data);
}

// Lower-case hexadecimal SHA-256, as `sha256sum` prints it.
inline std::string sha256_hex(std::string_view data) {
  auto d = sha256(data);
  return hex(d.data(), d.size());
}

// SHA-256 fed piece by piece (a cache key over many strings, without joining them first).
class Sha256 {
 public:
  Sha256() { sha256_init(&ctx_); }
  Sha256& add(std::string_view data) {
    sha256_update(&ctx_, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
    return *this;
  }
  // The length, then the bytes: concatenations of different pieces never hash alike.
  Sha256& field(std::string_view data) {
    std::string size = std::to_string(data.size()) + ':';
    return add(size).add(data);
  }
  std::string hex_digest() {
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> out{};
    sha256_digest(&ctx_, out.size(), out.data());
    return hex(out.data(), out.size());
  }

 private:
  sha256_ctx ctx_;
};

// A 64-bit checksum against damaged or truncated cache files and for telling apart the versions of
// one output between runs; not against tampering (where a forger gains nothing: the files are the
// output folder's own). 64-bit words, multiply and rotate: a fraction of a cycle per byte, where
// SHA-256 costs ~15.
// `seed` starts another, independent-looking sequence (two seeds: a 128-bit content key).
inline std::uint64_t checksum64(std::string_view s, std::uint64_t seed = 0x243F6A8885A308D3ULL) {
  constexpr std::uint64_t k = 0x9E3779B97F4A7C15ULL;
  std::uint64_t h = seed ^ s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * k;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<std::uint8_t>(s[i])) * k;
  h ^= h >> 32;
  return h * k;
}

inline std::array<std::uint8_t, SHA1_DIGEST_SIZE> sha1(std::string_view data) {
  return nettle_digest<sha1_ctx, SHA1_DIGEST_SIZE>(sha1_init, sha1_update, sha1_digest, data);
}

}  // namespace bb::text
