// The Unicode mathematical alphabets used by the TeX-to-MathML converter.
#include "math/unicode.hpp"

#include <array>
#include <utility>

namespace bb::math {

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
