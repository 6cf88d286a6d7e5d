// Character-level facts the converter needs: UTF-8 and CJK (from text/unicode), and the Unicode
// mathematical alphabets that \mathbf, \mathbb, \mathcal ... map letters to.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "text/unicode.hpp"

namespace bb::math {

// UTF-8 and scripts come from the one ICU-backed module: a CJK character typed directly in a formula
// is a word, not a variable, and becomes <mtext>.
using text::append_utf8;
using text::decode_utf8;
using text::is_cjk;

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
