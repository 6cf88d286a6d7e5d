// How wide text is when set in print, and which characters need CJK text fonts.
#include "writers/latex/cjk_width.hpp"

#include <algorithm>
#include <string_view>

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

namespace {

// Capitals are wider than the average Latin character a unit stands for (about 0.5 em).
double latin_width(char32_t cp) {
  return cp >= 'A' && cp <= 'Z' ? 1.4 : 1.0;
}

}  // namespace

double display_width(std::string_view s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      w += latin_width(c);
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

namespace {

// Punctuation that may not begin a line (xeCJK's kinsoku): it stays with the character before it,
// so "層：" or "MLA：" is one unbreakable run.
bool no_break_before(char32_t cp) {
  static constexpr std::u32string_view kClosing = U"，。、：；！？）」』】〉》”’・…—～％";
  return kClosing.find(cp) != std::u32string_view::npos;
}

// Punctuation that may not end a line: it stays with the character after it.
bool no_break_after(char32_t cp) {
  static constexpr std::u32string_view kOpening = U"（「『【〈《“‘";
  return kOpening.find(cp) != std::u32string_view::npos;
}

}  // namespace

double longest_word(std::string_view s) {
  double best = 0, run = 0;
  bool after_space = true, prev_wide = false, prev_open = false;
  for (std::size_t i = 0; i < s.size();) {
    const char32_t cp = next_codepoint(s, i);
    if (cp == ' ') {
      run = 0;
      after_space = true;
      continue;
    }
    // Letters (Latin, Greek, Cyrillic) join a word; a break is allowed before and after a wide
    // character, except before closing and after opening punctuation.
    const bool wide = cp >= 0x800;
    const bool joins = !after_space && (prev_open || (wide ? no_break_before(cp) : !prev_wide));
    if (!joins) run = 0;
    run += wide ? 2 : latin_width(cp);
    best = std::max(best, run);
    after_space = false;
    prev_wide = wide;
    prev_open = no_break_after(cp);
  }
  return best;
}

}  // namespace bb::writers::cjk
