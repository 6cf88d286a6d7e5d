// The TeX commands the converter knows that stand for one symbol, one space or one accent, with
// the MathML token each becomes. Structural commands (\frac, \left, \begin ...) live in the parser.
#pragma once

#include <optional>
#include <string_view>

namespace bb::math {

// How a symbol takes part in a formula; decides the MathML element and how scripts attach.
enum class SymbolClass {
  Ordinary,       // <mi>: letters, \infty, \ell, \%
  Upright,        // <mi mathvariant="normal">: capital Greek, which TeX sets upright
  Operator,       // <mo>: binary operators, relations, arrows, punctuation
  Open,           // <mo stretchy="false">, usable after \left
  Close,          // <mo stretchy="false">, usable after \right
  Fence,          // <mo stretchy="false">: | and \| (open or close by position)
  LargeOperator,  // <mo>: \sum, \prod; limits go under/over in display style
  Integral,       // <mo>: \int; limits always go to the side
  Function,       // <mi>name</mi> then U+2061 FUNCTION APPLICATION: \sin, \log, \exp
  LimitFunction,  // \max, \min, \lim: like Function, but limits go under in display style
};

struct Symbol {
  std::string_view name;  // without the backslash
  std::string_view text;  // UTF-8 content of the token
  SymbolClass cls;
};

// nullptr when `name` is not a symbol command.
const Symbol* find_symbol(std::string_view name);
// The symbol whose text is exactly `text` (for Unicode operators typed directly), or nullptr.
const Symbol* find_symbol_by_text(std::string_view text);

// Horizontal spacing commands (\, \: \; \! \quad \qquad, backslash-space ...): the width as a
// MathML length, or nullopt when `name` is not one.
std::optional<std::string_view> find_space(std::string_view name);

struct Accent {
  std::string_view name;
  std::string_view text;  // the accent character, a non-combining form
  bool under;             // \underline, \underbrace: below the base
  bool stretchy;          // \widehat, \overline: as wide as the base
  bool brace;             // \underbrace, \overbrace: a limits-taking operator, labelled by _ or ^
};

const Accent* find_accent(std::string_view name);

}  // namespace bb::math
