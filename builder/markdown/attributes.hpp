// Pandoc-style attribute blocks: `{#id .class key=value key="quoted value" -}`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bb::markdown {

struct Attributes {
  std::string id;
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, std::string>> pairs;
};

// Parses the text between the braces (without them). Returns nullopt when the text is not an
// attribute list, so that ordinary braces in prose are left alone. `{-}` means `.unnumbered`.
std::optional<Attributes> parse_attributes(std::string_view inner);

// If `text` ends with an attribute block (optionally followed by spaces), returns the attributes and
// the length of the text before the block (trailing spaces before the block excluded).
struct TrailingAttributes {
  Attributes attrs;
  std::size_t keep = 0;
};
std::optional<TrailingAttributes> trailing_attributes(std::string_view text);

}  // namespace bb::markdown
