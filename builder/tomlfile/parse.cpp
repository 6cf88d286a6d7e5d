// The guard of reader_hazard and the one parse (parse.hpp).
#include "tomlfile/parse.hpp"

#include <vector>

namespace bb::tomlfile {

std::optional<Hazard> reader_hazard(std::string_view text) {
  // Where toml++ is: at a key, at a value, or after a value; inside arrays and inline tables.
  enum class Expect { Key, Value, After } expect = Expect::Key;
  std::vector<char> open;  // '[' an array, '{' an inline table
  int line = 1, col = 0;
  std::size_t i = 0;
  auto starts = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
  if (starts("\xEF\xBB\xBF")) i = 3;  // a byte order mark, which toml++ skips
  // The code point at `at` and its length (malformed UTF-8 is toml++'s to report).
  auto decode = [&](std::size_t at, std::size_t& n) {
    const auto lead = static_cast<unsigned char>(text[at]);
    n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    char32_t c = lead;
    if (n > 1 && at + n <= text.size()) {
      c = lead & (0xFF >> (n + 1));
      for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(text[at + k]) & 0x3F);
    } else {
      n = 1;
    }
    return c;
  };
  auto advance = [&](std::size_t n, char32_t c) {
    i += n;
    ++col;
    if (c == '\n') ++line, col = 0;
  };
  const std::string outside =
      "a non-ASCII character outside a quoted string or a comment: TOML keys and values other than "
      "strings are ASCII (quote the key: \"…\" = …)";
  std::optional<Hazard> hazard;
  // The quoted string at i; false at a hazard (then in `hazard`).
  auto string = [&]() {
    const char q = text[i];
    const std::string_view three = q == '"' ? std::string_view("\"\"\"") : std::string_view("'''");
    const bool multi = starts(three);
    for (int k = 0; k < (multi ? 3 : 1); ++k) advance(1, q);
    bool after_backslash = false;
    while (i < text.size()) {
      std::size_t n = 0;
      const char32_t c = decode(i, n);
      if (after_backslash) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
          advance(n, c);
          continue;
        }
        after_backslash = false;
        if ((c >= 0xA1 && c <= 0x499) || (c >= 0xFC06 && c <= 0xFEFE)) {  // no case in its table
          hazard = Hazard{line, col + 1,
                          "this character cannot follow a backslash (or a line-ending backslash and the "
                          "whitespace after it) in a multi-line string: the TOML reader fails on it; put "
                          "an ASCII character first"};
          return false;
        }
        advance(n, c);  // the escaped character
        continue;
      }
      if (!multi && c == '\n') return true;  // toml++ reports the unclosed string
      if (q == '"' && c == '\\') {
        advance(n, c);
        if (multi)
          after_backslash = true;
        else if (i < text.size())
          advance(1, text[i]);  // the escaped character is not the string's end
        continue;
      }
      if (c == static_cast<char32_t>(q) && (!multi || starts(three))) {
        std::size_t run = 1;
        if (multi)  // up to two more quotes belong to the string: the delimiter is the last three
          while (i + run < text.size() && text[i + run] == q) ++run;
        for (std::size_t k = 0; k < run; ++k) advance(1, q);
        return true;
      }
      advance(n, c);
    }
    return true;
  };
  while (i < text.size()) {
    std::size_t n = 0;
    const char32_t c = decode(i, n);
    if (c == ' ' || c == '\t' || c == '\r') {
      advance(n, c);
      continue;
    }
    if (c == '\n') {
      if (open.empty()) expect = Expect::Key;
      advance(n, c);
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') advance(1, text[i]);
      continue;
    }
    if (c == '"' || c == '\'') {
      if (!string()) return hazard;
      if (expect != Expect::Key) expect = Expect::After;
      continue;
    }
    if (c >= 0x80) return Hazard{line, col + 1, outside};
    if (expect == Expect::Key) {
      if (c == '=') {
        expect = Expect::Value;
      } else if (c == '}' && !open.empty() && open.back() == '{') {
        open.pop_back();
        expect = Expect::After;
      }
      advance(n, c);  // a bare key character, `.`, `[` or `]` of a table header, or toml++'s error
      continue;
    }
    if (expect == Expect::After) {
      if (c == ',' && !open.empty()) {
        expect = open.back() == '[' ? Expect::Value : Expect::Key;
      } else if ((c == ']' && !open.empty() && open.back() == '[') ||
                 (c == '}' && !open.empty() && open.back() == '{')) {
        open.pop_back();
      } else if (c != ']' && c != '}' && c != ',') {
        expect = Expect::Value;  // toml++ stops here with an error; the scan reads on as if a value began
        continue;
      }
      advance(n, c);
      continue;
    }
    // At a value.
    if (c == '[' || c == '{') {
      open.push_back(static_cast<char>(c));
      if (c == '{') expect = Expect::Key;
      advance(n, c);
      continue;
    }
    if (c == ']' && !open.empty() && open.back() == '[') {  // an empty array, or after a trailing comma
      open.pop_back();
      expect = Expect::After;
      advance(n, c);
      continue;
    }
    // A bare value (number, boolean, date): toml++ reads it up to a value terminator, quotes and all.
    while (i < text.size()) {
      const char32_t v = decode(i, n);
      if (v == ' ' || v == '\t' || v == '\r' || v == '\n' || v == ']' || v == '}' || v == ',' || v == '#')
        break;
      if (v >= 0x80) return Hazard{line, col + 1, outside};
      advance(n, v);
    }
    expect = Expect::After;
  }
  return std::nullopt;
}
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Line `line` (1-based) of `text`.
std::string_view line_of(std::string_view text, int line) {
  std::size_t at = 0;
  for (int l = 1; l < line && at != std::string_view::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || at > text.size()) return {};
  return text.substr(at, text.find('\n', at) - at);
}

}  // namespace

std::string hint(std::string_view description, std::string_view line, int col) {
  auto has = [&](std::string_view s) { return description.find(s) != std::string_view::npos; };
  if (has("could not determine value type")) {
    // `lang = zh-Hans`: a word where a value belongs, which TOML reads only in quotes.
    const std::size_t eq = line.find('=');
    std::string_view value =
        col > 0 && static_cast<std::size_t>(col) <= line.size() ? line.substr(col - 1) : "";
    value = trimmed(value.substr(0, value.find(" #")));
    if (eq != std::string_view::npos && !value.empty() && value.find('"') == std::string_view::npos)
      return "text is quoted in TOML: write " + std::string(trimmed(line.substr(0, eq))) + " = \"" +
             std::string(value) + "\"";
    return "text is quoted in TOML (\"…\"); numbers, true and false are not";
  }
  if (has("control characters"))
    return "a quoted string ends on its own line: close the quote, or write text over several lines "
           "between \"\"\" and \"\"\"";
  if (has("table header")) return "a table's name is closed on its line: [book], [[edition]]";
  if (has("expected comma")) return "the items of a list are separated by commas: [\"a.md\", \"b.md\"]";
  if (has("cannot redefine"))
    return "a key is set once per table; [[edition]] (double brackets) starts another edition";
  return "the TOML syntax is described at https://toml.io";
}

Parsed parse(std::string_view text, const std::filesystem::path& file) {
  Parsed out;
  if (auto hazard = reader_hazard(text)) {
    out.line = hazard->line;
    out.col = hazard->col;
    out.error = hazard->message;
    return out;
  }
  try {
    out.table = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    out.line = static_cast<int>(e.source().begin.line);
    out.col = static_cast<int>(e.source().begin.column);
    out.error = std::string(e.description());
    out.error += "; hint: " + hint(out.error, line_of(text, out.line), out.col);
  }
  return out;
}

}  // namespace bb::tomlfile
