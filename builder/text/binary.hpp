// The little-endian binary layout of the files the output folder's cache keeps between runs (the
// highlight cache, the figure memo): writing fields, and reading them back from untrusted bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bb::text {

inline void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
inline void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
// A length (u32) and the bytes.
inline void put_text(std::string& out, std::string_view s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}

// Reads what the bytes say without ever going past their end; each read says whether it could.
class ByteReader {
 public:
  explicit ByteReader(std::string_view s) : s_(s) {}
  bool u8(std::uint8_t& v) {
    std::uint64_t w = 0;
    if (!uint(1, w)) return false;
    v = static_cast<std::uint8_t>(w);
    return true;
  }
  bool u32(std::uint32_t& v) {
    std::uint64_t w = 0;
    if (!uint(4, w)) return false;
    v = static_cast<std::uint32_t>(w);
    return true;
  }
  bool u64(std::uint64_t& v) { return uint(8, v); }
  // The next u32, or 0 when fewer than four bytes are left.
  std::uint32_t u32() {
    std::uint32_t v = 0;
    u32(v);
    return v;
  }
  bool bytes(std::size_t n, std::string_view& v) {
    if (s_.size() - at_ < n) return false;
    v = s_.substr(at_, n);
    at_ += n;
    return true;
  }
  // What put_text wrote.
  bool text(std::string_view& v) {
    std::uint32_t n = 0;
    return u32(n) && bytes(n, v);
  }
  [[nodiscard]] std::size_t left() const { return s_.size() - at_; }

 private:
  bool uint(int n, std::uint64_t& v) {
    if (s_.size() - at_ < static_cast<std::size_t>(n)) return false;
    v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(static_cast<std::uint8_t>(s_[at_++])) << (8 * i);
    return true;
  }
  std::string_view s_;
  std::size_t at_ = 0;
};

}  // namespace bb::text
