// Character-level facts the converter needs: UTF-8 decoding/encoding, which characters are CJK
// text, and the Unicode mathematical alphabets that \mathbf, \mathbb, \mathcal ... map letters to.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bb::math {

// Decodes one code point at `pos`; sets `length` to the bytes consumed (at least 1). Returns
// U+FFFD for malformed input (and length 1), so callers can report it and move on.
char32_t decode_utf8(std::string_view s, std::size_t pos, std::size_t& length);
void append_utf8(std::string& out, char32_t c);

// Han, kana, hangul, CJK punctuation and full-width forms: typed directly in a formula, these are
// words, not variables, and become <mtext>.
bool is_cjk(char32_t c);

// The fonts TeX math offers. Normal means upright (\mathrm); the others map to the Unicode
// Mathematical Alphanumeric Symbols block, which renders without relying on `mathvariant`
// (MathML Core supports mathvariant only as "normal" on <mi>).
enum class Alphabet {
  Normal,
  Bold,
  Italic,
  BoldItalic,
  Script,
  Fraktur,
  DoubleStruck,
  SansSerif,
  Monospace,
};

// The code point for `c` (an ASCII letter or digit, or a Greek letter) in `alphabet`, or `c`
// itself when Unicode has no such character (e.g. a bold CJK character) or alphabet is Normal.
char32_t styled(char32_t c, Alphabet alphabet);

}  // namespace bb::math
