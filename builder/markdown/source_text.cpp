// A manuscript's bytes before parsing: UTF-16/UTF-32 files, NUL bytes and invalid UTF-8 are located
// errors, so that a wrongly saved file is named as such rather than parsed into confusing text.
#include "markdown/source_text.hpp"

#include <algorithm>

namespace bb::markdown {

namespace {

// At most this many invalid sequences are reported one by one; a binary file would give millions.
constexpr int kMaxEncodingErrors = 20;

// UTF-16 and UTF-32 by their byte order mark, or by NUL bytes between ASCII characters (no BOM).
const char* wide_encoding(std::string_view in) {
  if (in.starts_with(std::string_view("\xFF\xFE\0\0", 4)) ||
      in.starts_with(std::string_view("\0\0\xFE\xFF", 4)))
    return "UTF-32";
  if (in.starts_with("\xFF\xFE") || in.starts_with("\xFE\xFF")) return "UTF-16";
  std::string_view head = in.substr(0, 4096);
  auto nuls = std::count(head.begin(), head.end(), '\0');
  if (head.size() >= 2 && static_cast<std::size_t>(nuls) * 4 >= head.size()) return "UTF-16";
  return nullptr;
}

// The length of the well-formed UTF-8 sequence of two to four bytes at `i` (the Unicode Standard,
// Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t well_formed_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto tail = [](unsigned b) { return b >= 0x80 && b <= 0xBF; };
  const unsigned c = byte(0), b1 = byte(1);
  if (c >= 0xC2 && c <= 0xDF) return tail(b1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const bool second = c == 0xE0   ? (b1 >= 0xA0 && b1 <= 0xBF)
                        : c == 0xED ? (b1 >= 0x80 && b1 <= 0x9F)
                                    : tail(b1);
    return second && tail(byte(2)) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const bool second = c == 0xF0   ? (b1 >= 0x90 && b1 <= 0xBF)
                        : c == 0xF4 ? (b1 >= 0x80 && b1 <= 0x8F)
                                    : tail(b1);
    return second && tail(byte(2)) && tail(byte(3)) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::optional<std::string> checked_utf8(std::string_view in, const std::filesystem::path& path,
                                        Diagnostics& diags) {
  if (const char* wide = wide_encoding(in)) {
    diags.error({path, 1, 1}, std::string("the file is encoded in ") + wide +
                                  "; manuscripts must be UTF-8 (save it again as UTF-8)");
    return std::nullopt;
  }
  std::string out;
  out.reserve(in.size());
  // Lines are counted only up to a problem, which is rare: most files are copied in one piece.
  int line = 1;
  std::size_t counted = 0, line_start = 0;
  auto here = [&](std::size_t at) {
    for (std::size_t p = counted; p < at; ++p)
      if (in[p] == '\n') {
        ++line;
        line_start = p + 1;
      }
    counted = at;
    return SourceLoc{path, line, static_cast<int>(at - line_start + 1)};
  };
  std::size_t i = 0;
  int invalid = 0;
  int nuls = 0;
  SourceLoc first_nul;
  if (in.starts_with("\xEF\xBB\xBF")) i = 3;  // byte order mark
  std::size_t copied = i;                     // in[copied, i) is good text not yet in `out`
  while (i < in.size()) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c != 0 && c < 0x80) {
      ++i;
      continue;
    }
    // A truncated, overlong or surrogate sequence is replaced one byte at a time, as ICU's decoder
    // (text/unicode) does; a U+FFFD written in the file is well formed and kept.
    if (std::size_t n = c != 0 ? well_formed_length(in, i) : 0) {
      i += n;
      continue;
    }
    SourceLoc at = here(i);
    // NUL is valid UTF-8 but no text: CommonMark would turn it into U+FFFD without a word.
    if (c == 0 && nuls++ == 0) first_nul = at;
    if (c != 0 && ++invalid <= kMaxEncodingErrors) diags.error(at, "invalid UTF-8 byte sequence");
    out.append(in.substr(copied, i - copied));
    out += "\xEF\xBF\xBD";
    copied = ++i;
  }
  out.append(in.substr(copied));
  if (invalid > kMaxEncodingErrors)
    diags.error({path, 0, 0}, std::to_string(invalid - kMaxEncodingErrors) +
                                  " more invalid UTF-8 byte sequences in this file (the first " +
                                  std::to_string(kMaxEncodingErrors) + " are shown)");
  if (nuls > 0)
    diags.error(first_nul, nuls == 1 ? std::string("NUL byte in the text")
                                     : "NUL byte in the text (" + std::to_string(nuls) + " in this file)");
  return out;
}

}  // namespace bb::markdown
