// UTF-8 and Unicode character tables used by the TeX-to-MathML converter.
#include "math/unicode.hpp"

#include <array>
#include <utility>

namespace bb::math {

char32_t decode_utf8(std::string_view s, std::size_t pos, std::size_t& length) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(pos);
  length = 1;
  if (b0 < 0x80) return b0;
  std::size_t n = 0;
  char32_t c = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2;
    c = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3;
    c = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4;
    c = b0 & 0x07;
  } else {
    return 0xFFFD;
  }
  if (pos + n > s.size()) return 0xFFFD;
  for (std::size_t i = 1; i < n; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 0xFFFD;
    c = (c << 6) | (byte(pos + i) & 0x3F);
  }
  // Overlong forms, surrogates and values beyond Unicode are malformed.
  static constexpr std::array<char32_t, 5> kMin = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0xFFFD;
  length = n;
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

bool is_cjk(char32_t c) {
  return (c >= 0x2E80 && c <= 0x2FDF)        // radicals
         || (c >= 0x3000 && c <= 0x303F)     // CJK symbols and punctuation
         || (c >= 0x3040 && c <= 0x30FF)     // hiragana, katakana
         || (c >= 0x3100 && c <= 0x31FF)     // bopomofo, kanbun, katakana extensions
         || (c >= 0x3400 && c <= 0x4DBF)     // extension A
         || (c >= 0x4E00 && c <= 0x9FFF)     // unified ideographs
         || (c >= 0xAC00 && c <= 0xD7AF)     // hangul syllables
         || (c >= 0xF900 && c <= 0xFAFF)     // compatibility ideographs
         || (c >= 0xFF00 && c <= 0xFFEF)     // full-width and half-width forms
         || (c >= 0x20000 && c <= 0x3FFFF);  // supplementary ideographic planes
}

namespace {

struct AlphabetBase {
  char32_t upper, lower, digit, greek_upper, greek_lower;  // 0: Unicode has none
};

AlphabetBase base_of(Alphabet a) {
  switch (a) {
    case Alphabet::Bold: return {0x1D400, 0x1D41A, 0x1D7CE, 0x1D6A8, 0x1D6C2};
    case Alphabet::Italic: return {0x1D434, 0x1D44E, 0, 0x1D6E2, 0x1D6FC};
    case Alphabet::BoldItalic: return {0x1D468, 0x1D482, 0, 0x1D71C, 0x1D736};
    case Alphabet::Script: return {0x1D49C, 0x1D4B6, 0, 0, 0};
    case Alphabet::Fraktur: return {0x1D504, 0x1D51E, 0, 0, 0};
    case Alphabet::DoubleStruck: return {0x1D538, 0x1D552, 0x1D7D8, 0, 0};
    case Alphabet::SansSerif: return {0x1D5A0, 0x1D5BA, 0x1D7E2, 0, 0};
    case Alphabet::Monospace: return {0x1D670, 0x1D68A, 0x1D7F6, 0, 0};
    case Alphabet::Normal: break;
  }
  return {0, 0, 0, 0, 0};
}

// Letters that Unicode encoded in the Letterlike Symbols block before the mathematical
// alphabets existed; their slots in the alphabets are reserved holes.
char32_t letterlike(char32_t c, Alphabet a) {
  static constexpr std::array<std::pair<char, char32_t>, 11> kScript = {{{'B', 0x212C},
                                                                         {'E', 0x2130},
                                                                         {'F', 0x2131},
                                                                         {'H', 0x210B},
                                                                         {'I', 0x2110},
                                                                         {'L', 0x2112},
                                                                         {'M', 0x2133},
                                                                         {'R', 0x211B},
                                                                         {'e', 0x212F},
                                                                         {'g', 0x210A},
                                                                         {'o', 0x2134}}};
  static constexpr std::array<std::pair<char, char32_t>, 5> kFraktur = {
      {{'C', 0x212D}, {'H', 0x210C}, {'I', 0x2111}, {'R', 0x211C}, {'Z', 0x2128}}};
  static constexpr std::array<std::pair<char, char32_t>, 7> kDouble = {{{'C', 0x2102},
                                                                        {'H', 0x210D},
                                                                        {'N', 0x2115},
                                                                        {'P', 0x2119},
                                                                        {'Q', 0x211A},
                                                                        {'R', 0x211D},
                                                                        {'Z', 0x2124}}};
  const auto find = [c](const auto& table) -> char32_t {
    for (const auto& [from, to] : table)
      if (static_cast<char32_t>(from) == c) return to;
    return 0;
  };
  switch (a) {
    case Alphabet::Italic: return c == 'h' ? 0x210E : 0;
    case Alphabet::Script: return find(kScript);
    case Alphabet::Fraktur: return find(kFraktur);
    case Alphabet::DoubleStruck: return find(kDouble);
    default: return 0;
  }
}

}  // namespace

char32_t styled(char32_t c, Alphabet alphabet) {
  if (alphabet == Alphabet::Normal) return c;
  if (const char32_t hole = letterlike(c, alphabet)) return hole;
  const AlphabetBase b = base_of(alphabet);
  if (c >= 'A' && c <= 'Z' && b.upper) return b.upper + (c - 'A');
  if (c >= 'a' && c <= 'z' && b.lower) return b.lower + (c - 'a');
  if (c >= '0' && c <= '9' && b.digit) return b.digit + (c - '0');
  // Greek capitals U+0391..U+03A9 (the unassigned U+03A2 slot holds capital theta symbol in the
  // mathematical block) and small letters U+03B1..U+03C9, in the same order as the math block.
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2 && b.greek_upper) return b.greek_upper + (c - 0x391);
  if (c >= 0x3B1 && c <= 0x3C9 && b.greek_lower) return b.greek_lower + (c - 0x3B1);
  return c;
}

}  // namespace bb::math
