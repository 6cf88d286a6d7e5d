// Characters of UTF-8 text, answered by ICU: decoding and encoding, display width (East Asian
// Width), and whether a character belongs to a CJK script. One place for every module that asks.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bb::text {

// Decodes one code point at `pos`; sets `length` to the bytes consumed (at least 1). Malformed
// input (truncated, overlong, surrogates, beyond U+10FFFF) gives U+FFFD with length 1.
char32_t decode_utf8(std::string_view s, std::size_t pos, std::size_t& length);
// The code point at `pos`, advancing `pos` past it.
char32_t next_code_point(std::string_view s, std::size_t& pos);
void append_utf8(std::string& out, char32_t c);
std::string to_utf8(std::u32string_view s);
std::u32string to_utf32(std::string_view s);

// Whether `s` is well-formed UTF-8; `bad` receives the byte offset of the first problem.
bool valid_utf8(std::string_view s, std::size_t* bad = nullptr);

// Han, Hiragana, Katakana, Hangul, Bopomofo (by Unicode script), CJK punctuation and full-width
// forms (East Asian Width F): text that is set without spaces between words.
bool is_cjk(char32_t c);
// The letters and digits of those scripts only (no punctuation, no full-width Latin): what a search
// index cuts into bigrams because the text has no spaces between words.
bool is_cjk_letter(char32_t c);

// Columns a character takes in a monospaced CJK-aware layout: 2 for East Asian Wide and Fullwidth,
// 0 for combining marks and controls, 1 otherwise.
int char_width(char32_t c);

// A letter of any script (Unicode general category L): where a word ends.
bool is_letter(char32_t c);
// Lower case by ICU's simple per-character mapping ("Четыре" → "четыре"); other bytes unchanged.
std::string lower(std::string_view s);
// The sum of char_width over a UTF-8 string.
int display_width(std::string_view s);

// `s` without leading and trailing ASCII white space.
std::string_view trim(std::string_view s);

}  // namespace bb::text
