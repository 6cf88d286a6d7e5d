// How wide text is when set in print, and which characters need CJK text fonts.
#include "writers/latex/cjk_width.hpp"

#include <algorithm>

namespace bb::writers::cjk {

char32_t next_codepoint(std::string_view s, std::size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80             ? 1
                    : (c & 0xE0) == 0xC0 ? 2
                    : (c & 0xF0) == 0xE0 ? 3
                    : (c & 0xF8) == 0xF0 ? 4
                                         : 1;
  if (i + len > s.size()) len = 1;
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

bool is_cjk(char32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x3FFFF);
}

double display_width(std::string_view s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      w += 1;
    } else if ((c & 0xE0) == 0xC0) {
      w += 1;
      i += 1;
    } else if ((c & 0xF0) == 0xE0) {
      w += 2;
      i += 2;
    } else {
      w += 2;
      i += 3;
    }
  }
  return w;
}

double longest_word(std::string_view s) {
  double best = 0, run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ') {
      run = 0;
    } else if (c < 0x80) {
      run += 1;
    } else {
      std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
      if (len == 2) {
        run += 1;  // Latin-1, Greek, Cyrillic: part of a word
      } else {
        run = 0;
        best = std::max(best, 2.0);
      }
      i += len - 1;
    }
    best = std::max(best, run);
  }
  return best;
}

}  // namespace bb::writers::cjk
