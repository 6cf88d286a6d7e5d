// How wide text is when set in print, and which characters need CJK text fonts.
#include "writers/latex/cjk_width.hpp"

#include <algorithm>
#include <string_view>

#include "text/unicode.hpp"

namespace bb::writers::cjk {

namespace {

// Capitals are wider than the average Latin character a unit stands for (about 0.5 em).
double latin_width(char32_t cp) {
  return cp >= 'A' && cp <= 'Z' ? 1.4 : 1.0;
}

// East Asian Wide and Fullwidth characters count double, combining marks nothing (text::char_width).
double char_units(char32_t cp) {
  return cp < 0x80 ? latin_width(cp) : text::char_width(cp);
}

}  // namespace

double display_width(std::string_view s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size();) w += char_units(text::next_code_point(s, i));
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
    const char32_t cp = text::next_code_point(s, i);
    if (cp == ' ') {
      run = 0;
      after_space = true;
      continue;
    }
    // Letters (Latin, Greek, Cyrillic) join a word; a break is allowed before and after a wide
    // character, except before closing and after opening punctuation.
    const bool wide = text::char_width(cp) == 2;
    const bool joins = !after_space && (prev_open || (wide ? no_break_before(cp) : !prev_wide));
    if (!joins) run = 0;
    run += char_units(cp);
    best = std::max(best, run);
    after_space = false;
    prev_wide = wide;
    prev_open = no_break_after(cp);
  }
  return best;
}

}  // namespace bb::writers::cjk
