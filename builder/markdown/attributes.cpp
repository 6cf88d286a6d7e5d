// Pandoc-style attribute blocks, shared by headings, figures, tables, equations and spans.
#include "markdown/attributes.hpp"

#include <cctype>

namespace bb::markdown {

namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.' ||
         (static_cast<unsigned char>(c) >= 0x80);
}

}  // namespace

std::optional<Attributes> parse_attributes(std::string_view s) {
  Attributes out;
  std::size_t i = 0;
  bool any = false;
  auto skip_space = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
  };
  skip_space();
  while (i < s.size()) {
    char c = s[i];
    if (c == '#' || c == '.') {
      std::size_t start = ++i;
      while (i < s.size() && is_name_char(s[i])) ++i;
      if (i == start) return std::nullopt;
      std::string name(s.substr(start, i - start));
      if (c == '#') {
        if (!out.id.empty()) return std::nullopt;
        out.id = name;
      } else {
        out.classes.push_back(name);
      }
    } else if (c == '-' && (i + 1 == s.size() || s[i + 1] == ' ')) {
      ++i;
      out.classes.emplace_back("unnumbered");
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      std::size_t start = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_'))
        ++i;
      std::string key(s.substr(start, i - start));
      if (i >= s.size() || s[i] != '=') return std::nullopt;
      ++i;
      std::string value;
      if (i < s.size() && s[i] == '"') {
        ++i;
        while (i < s.size() && s[i] != '"') {
          if (s[i] == '\\' && i + 1 < s.size()) ++i;
          value += s[i++];
        }
        if (i >= s.size()) return std::nullopt;
        ++i;
      } else {
        std::size_t vstart = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') ++i;
        value = std::string(s.substr(vstart, i - vstart));
        if (value.empty()) return std::nullopt;
      }
      out.pairs.emplace_back(std::move(key), std::move(value));
    } else {
      return std::nullopt;
    }
    any = true;
    if (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') return std::nullopt;
    skip_space();
  }
  if (!any) return std::nullopt;
  return out;
}

std::optional<TrailingAttributes> trailing_attributes(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  if (end == 0 || text[end - 1] != '}') return std::nullopt;
  std::size_t open = text.rfind('{', end - 1);
  if (open == std::string_view::npos) return std::nullopt;
  if (open > 0 && text[open - 1] == '{') return std::nullopt;  // `{{…}}` is a placeholder, not attributes
  auto attrs = parse_attributes(text.substr(open + 1, end - open - 2));
  if (!attrs) return std::nullopt;
  std::size_t keep = open;
  while (keep > 0 && (text[keep - 1] == ' ' || text[keep - 1] == '\t')) --keep;
  return TrailingAttributes{std::move(*attrs), keep};
}

}  // namespace bb::markdown
