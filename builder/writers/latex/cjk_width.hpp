// How wide text is when set in print, and which characters need CJK text fonts: the LaTeX writer's
// measure for choosing table columns and for wrapping CJK inside math in \text{}.
#pragma once

#include <cstddef>
#include <string_view>

namespace bb::writers::cjk {

// Decodes the UTF-8 sequence at s[i] (advancing i past it); invalid bytes decode as themselves.
char32_t next_codepoint(std::string_view s, std::size_t& i);

// CJK ideographs, kana, hangul, CJK punctuation and full-width forms: set by the CJK text font.
bool is_cjk(char32_t cp);

// Display width of a cell's text in "Latin character" units (CJK and full-width count double),
// used to choose table column widths.
double display_width(std::string_view s);

// The widest unbreakable run of a cell: a Latin word; CJK text breaks between any two characters.
double longest_word(std::string_view s);

}  // namespace bb::writers::cjk
