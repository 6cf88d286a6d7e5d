// Inline math in table cells: break points and widths (see cell_math.hpp).
#include "writers/latex/cell_math.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace bb::writers::cell_math {

namespace {

// Commands TeX sets as relations or binary operators: a line may break after them.
constexpr std::array<std::string_view, 34> kBreakingCommands = {
    "le",    "leq",    "ge",       "geq",        "ne",        "neq",        "approx",    "sim",    "simeq",
    "equiv", "propto", "to",       "rightarrow", "leftarrow", "Rightarrow", "Leftarrow", "mapsto", "in",
    "notin", "subset", "subseteq", "ll",         "gg",        "times",      "cdot",      "pm",     "mp",
    "div",   "cup",    "cap",      "oplus",      "otimes",    "ast",        "circ"};

// A sign after an operand is a binary operator; at the start or after `(`, `=`, `,`, … it is a
// sign of its operand, and TeX does not break after it.
bool binary(std::string_view tex, std::size_t at) {
  while (at > 0 && tex[at - 1] == ' ') --at;
  return at > 0 && std::string_view("([{,;=<>+-^_").find(tex[at - 1]) == std::string_view::npos;
}

// Calls `at(end, comma)` for each top-level break point: `end` is the byte after the breaking
// symbol, `comma` whether it is punctuation (where TeX needs an explicit \allowbreak).
template <typename F>
void each_break(std::string_view tex, F at) {
  int depth = 0;
  for (std::size_t i = 0; i < tex.size(); ++i) {
    const char c = tex[i];
    if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    } else if (c == '\\') {
      std::size_t j = i + 1;
      while (j < tex.size() && std::isalpha(static_cast<unsigned char>(tex[j]))) ++j;
      if (j == i + 1) {
        i = std::min(i + 1, tex.size() - 1);  // a control symbol: \{, \,, …
        continue;
      }
      const std::string_view name = tex.substr(i + 1, j - i - 1);
      if (name == "left") ++depth;
      if (name == "right") --depth;
      if (depth == 0 &&
          std::find(kBreakingCommands.begin(), kBreakingCommands.end(), name) != kBreakingCommands.end())
        at(j, false);
      i = j - 1;
    } else if (depth == 0 && i + 1 < tex.size()) {
      if (c == ',' || c == ';')
        at(i + 1, true);
      else if (c == '=' || c == '<' || c == '>')
        at(i + 1, false);
      else if ((c == '+' || c == '-') && binary(tex, i))
        at(i + 1, false);
    }
  }
}

}  // namespace

std::vector<std::string_view> pieces(std::string_view tex) {
  std::vector<std::string_view> out;
  std::size_t from = 0;
  each_break(tex, [&](std::size_t end, bool) {
    out.push_back(tex.substr(from, end - from));
    from = end;
  });
  out.push_back(tex.substr(from));
  return out;
}

std::string allow_breaks(std::string_view tex) {
  std::string out;
  std::size_t from = 0;
  each_break(tex, [&](std::size_t end, bool comma) {
    if (!comma) return;
    out.append(tex.substr(from, end - from));
    out += "\\allowbreak ";
    from = end;
  });
  out.append(tex.substr(from));
  return out;
}

double width(std::string_view tex) {
  double w = 0;
  int depth = 0, script_depth = -1;  // the brace depth a script group ends at, -1 outside one
  bool script_next = false;          // the next token is a one-token script (x^2)
  for (std::size_t i = 0; i < tex.size(); ++i) {
    const char c = tex[i];
    if (c == '^' || c == '_') {
      script_next = true;
      continue;
    }
    if (c == '{') {
      ++depth;
      if (script_next && script_depth < 0) script_depth = depth;
      script_next = false;
      continue;
    }
    if (c == '}') {
      if (depth == script_depth) script_depth = -1;
      --depth;
      continue;
    }
    if (c == ' ') continue;
    const double scale = script_next || script_depth >= 0 ? 0.7 : 1;
    script_next = false;
    if (c != '\\') {
      const bool capital = std::isupper(static_cast<unsigned char>(c));
      const bool punctuation = c == ',' || c == ';';
      w += scale * (capital ? 1.4 : punctuation ? 1.2 : 1);
      continue;
    }
    std::size_t j = i + 1;
    while (j < tex.size() && std::isalpha(static_cast<unsigned char>(tex[j]))) ++j;
    const std::string_view name = tex.substr(i + 1, j - i - 1);
    const bool layout = name.starts_with("math") || name.starts_with("text") || name == "left" ||
                        name == "right" || name == "frac" || name == "operatorname" || name == "allowbreak";
    if (!layout) w += 2 * scale;
    i = std::max(j, i + 2) - 1;
  }
  return w;
}

}  // namespace bb::writers::cell_math
