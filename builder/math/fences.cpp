// Delimiters: \left ... \middle ... \right and the fixed sizes \big, \Big, \bigg, \Bigg.
#include "math/parser.hpp"

namespace bb::math {

// The delimiter after \left, \right, \middle or \big: its text, empty for `.`; nullopt if none.
std::optional<std::string> Parser::parse_delimiter(std::string_view owner) {
  skip_spaces();
  const std::size_t at = pos_;
  const char c = peek();
  if (c == '(' || c == ')' || c == '[' || c == ']' || c == '|' || c == '/') {
    ++pos_;
    return std::string(1, c);
  }
  if (c == '.') {
    ++pos_;
    return std::string();
  }
  if (c == '<' || c == '>') {
    ++pos_;
    return std::string(c == '<' ? "⟨" : "⟩");
  }
  if (c == '\\') {
    const std::string_view name = command();
    const Symbol* s = find_symbol(name);
    if (s && (s->cls == SymbolClass::Open || s->cls == SymbolClass::Close || s->cls == SymbolClass::Fence ||
              name == "backslash" || name == "uparrow" || name == "downarrow")) {
      take_command();
      return std::string(s->text);
    }
  }
  error(at, "missing or unsupported delimiter after \\" + std::string(owner));
  return std::nullopt;
}

std::optional<Node> Parser::parse_left(std::size_t start) {
  const std::string open = parse_delimiter("left").value_or("");
  frames_.push_back(Frame::Left);
  std::string inner = fence(open, "prefix");
  inner += join(parse_list());
  while (command() == "middle") {
    take_command();
    if (const std::optional<std::string> middle = parse_delimiter("middle"))
      inner += element("mo", *middle, "fence=\"true\" stretchy=\"true\"");
    inner += join(parse_list());
  }
  frames_.pop_back();
  if (command() == "right") {
    take_command();
    inner += fence(parse_delimiter("right").value_or(""), "postfix");
  } else if (!too_deep_) {
    error(start, "missing \\right for this \\left");
  }
  return Node{wrap("mrow", inner), Kind::Ordinary, {}, 0};
}

// \big( \Bigl[ \biggr) ...: a delimiter of a fixed larger size.
std::optional<Node> Parser::parse_big(std::string_view name) {
  std::string_view base = name;
  Kind kind = Kind::Ordinary;
  std::string_view form;
  if (base.ends_with('l') || base.ends_with('r') || base.ends_with('m')) {
    kind = base.back() == 'l' ? Kind::Open : base.back() == 'r' ? Kind::Close : Kind::Operator;
    form = base.back() == 'l' ? "prefix" : base.back() == 'r' ? "postfix" : "infix";
    base.remove_suffix(1);
  }
  std::string_view size;
  if (base == "big") size = "1.2em";
  if (base == "Big") size = "1.623em";
  if (base == "bigg") size = "2.047em";
  if (base == "Bigg") size = "2.470em";
  if (size.empty()) return std::nullopt;
  const std::optional<std::string> delimiter = parse_delimiter(name);
  if (!delimiter) return std::nullopt;
  if (delimiter->empty()) return space("0em");
  std::string attributes = "minsize=\"" + std::string(size) + "\" maxsize=\"" + std::string(size) + "\"";
  if (!form.empty()) attributes += " form=\"" + std::string(form) + "\"";
  return Node{element("mo", *delimiter, attributes), kind, {}, 0};
}

}  // namespace bb::math
