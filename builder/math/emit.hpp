// The MathML emitter: the nodes the parser builds and the elements, rows and fences they are
// written as (escaping, FUNCTION APPLICATION, alttext).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bb::math {

// How a parsed piece takes part in its row: decides where scripts go and where U+2061 FUNCTION
// APPLICATION is inserted.
enum class Kind {
  Ordinary,
  Operator,
  Open,
  Close,
  LargeOperator,
  Integral,
  Function,
  LimitFunction,
  Brace,
  Space
};

struct Node {
  std::string xml;
  Kind kind = Kind::Ordinary;
  std::string letters;  // an upright letter run (\mathrm{...}) that merges with the next one
  int limits = 0;       // +1 after \limits, -1 after \nolimits
};

// <tag attributes>escaped text</tag>
std::string element(std::string_view tag, std::string_view text, std::string_view attributes = {});
// <tag attributes>inner</tag>, inner being MathML already
std::string wrap(std::string_view tag, std::string_view inner, std::string_view attributes = {});
std::string upright_identifier(std::string_view letters);
std::string utf8(char32_t c);

// Concatenates a row's nodes, inserting FUNCTION APPLICATION after a function name that is applied
// to something (`\sin\theta`, `\max(a,b)`), as MathML expects for speech and spacing.
std::string join(const std::vector<Node>& nodes);
// A row as one MathML element: a single node as it is, several inside <mrow>.
std::string row(const std::vector<Node>& nodes);
// A stretchy fence <mo> (form "prefix" or "postfix"), or "" for no fence.
std::string fence(std::string_view text, std::string_view form);
// A horizontal space of a MathML length.
Node space(std::string_view width);

// The TeX for alttext: escaped for an attribute, newlines kept as character references, and
// anything that is not valid in XML (control characters, malformed UTF-8) replaced by U+FFFD.
std::string alttext(std::string_view tex);

}  // namespace bb::math
