// Peer comparison support: reduces a <math> element (ours or pandoc's) to the sequence of
// identifiers, numbers, operators and texts it contains, normalised so that only differences a
// reader would notice remain (see docs/math.md, "Peer comparison").
#pragma once

#include <string>
#include <vector>

#include <pugixml.hpp>

namespace bb::math::test {

struct Token {
  char kind;  // 'i' identifier, 'n' number, 'o' operator, 't' text, 's' ordinary symbol
  std::string text;
  bool operator==(const Token&) const = default;
};

struct TokenStream {
  std::vector<Token> tokens;
  int primes = 0;  // primes are counted, not placed (see normalise)
  bool operator==(const TokenStream&) const = default;
};

TokenStream tokens_of(const pugi::xml_node& math);
// Parses `xml` (one <math> element) and returns its tokens; sets `ok` to false if it is not XML.
TokenStream tokens_of(const std::string& xml, bool& ok);
std::string describe(const TokenStream& stream);

}  // namespace bb::math::test
