// Environments inside math: aligned, gathered, cases, the matrices and array, written as <mtable>.
#include "math/parser.hpp"

#include <algorithm>

namespace bb::math {

namespace {

struct Environment {
  std::string_view name;
  std::string_view open, close;  // fences around the table, empty for none
  char align;                    // 'r' alternating r/l (aligned), or the alignment of every column
  bool display;                  // cells in display style
};

constexpr Environment kEnvironments[] = {
    {"aligned", "", "", 'a', true},    {"gathered", "", "", 'c', true},   {"cases", "{", "", 'l', false},
    {"matrix", "", "", 'c', false},    {"pmatrix", "(", ")", 'c', false}, {"bmatrix", "[", "]", 'c', false},
    {"Bmatrix", "{", "}", 'c', false}, {"vmatrix", "|", "|", 'c', false}, {"Vmatrix", "‖", "‖", 'c', false},
    {"array", "", "", 'c', false},     {"split", "", "", 'a', true},      {"smallmatrix", "", "", 'c', false},
    {"dcases", "{", "", 'l', true},
};

const Environment* find_environment(std::string_view name) {
  for (const Environment& e : kEnvironments)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

std::optional<Node> Parser::parse_environment(std::size_t start) {
  const std::string name = read_name();
  const Environment* env = find_environment(name);
  if (!env) error(start, "unsupported environment {" + name + "}");
  std::vector<char> columns;  // alignment per column for array
  if (env && env->name == "array") {
    const std::size_t spec_at = pos_;
    for (char c : read_name()) {
      if (c == 'l' || c == 'c' || c == 'r') {
        columns.push_back(c);
      } else if (c != ' ') {
        error(spec_at, std::string("unsupported array column specification '") + c + "'");
      }
    }
  }
  const bool saved = display_style_;
  display_style_ = env ? env->display : false;
  frames_.push_back(Frame::Table);
  std::vector<std::vector<std::vector<Node>>> rows(1);
  while (true) {
    rows.back().push_back(parse_list());
    if (peek() == '&') {
      ++pos_;
      continue;
    }
    const std::size_t at = pos_;
    const std::string_view cmd = command();
    if (cmd == "\\") {
      take_command();
      rows.emplace_back();
      continue;
    }
    if (cmd == "end") {
      take_command();
      const std::string end_name = read_name();
      if (end_name != name) error(at, "\\end{" + end_name + "} does not match \\begin{" + name + "}");
    } else if (!too_deep_) {
      error(start, "missing \\end{" + name + "} for this \\begin");
    }
    break;
  }
  frames_.pop_back();
  display_style_ = saved;
  // A trailing `\\` leaves an empty last row, which TeX does not typeset.
  if (rows.size() > 1 && rows.back().size() == 1 && rows.back().front().empty()) rows.pop_back();

  std::size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.size());
  const auto alignment = [&](std::size_t column) -> char {
    if (!env) return 'c';
    if (env->align == 'a') return column % 2 == 0 ? 'r' : 'l';
    if (!columns.empty()) return column < columns.size() ? columns[column] : 'c';
    return env->align;
  };
  std::string table;
  for (const auto& r : rows) {
    std::string cells;
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::vector<Node> cell = r[i];
      // In `&= b`, the relation needs a left operand to be spaced as infix, as TeX's {} does.
      if (env && env->align == 'a' && i % 2 == 1 && !cell.empty() && cell.front().kind == Kind::Operator)
        cell.insert(cell.begin(), Node{"<mi></mi>", Kind::Ordinary, {}, 0});
      const char a = alignment(i);
      cells += wrap("mtd", join(cell),
                    a == 'l'   ? "columnalign=\"left\""
                    : a == 'r' ? "columnalign=\"right\""
                               : "");
    }
    table += wrap("mtr", cells);
  }
  std::string attributes;
  if (env && env->display) attributes = "displaystyle=\"true\" ";
  if (env && env->align == 'a') {
    attributes += "columnspacing=\"";
    for (std::size_t i = 1; i < width; ++i) attributes += i == 1 ? "0em" : i % 2 == 1 ? " 0em" : " 2em";
    if (width < 2) attributes += "0em";
    attributes += "\" ";
  }
  attributes += "rowspacing=\"0.5em\"";
  std::string xml = wrap("mtable", table, attributes);
  if (env && (!env->open.empty() || !env->close.empty()))
    xml = wrap("mrow", fence(env->open, "prefix") + xml + fence(env->close, "postfix"));
  return Node{xml, Kind::Ordinary, {}, 0};
}

}  // namespace bb::math
