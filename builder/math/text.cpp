// Text inside math: \text and its font variants as <mtext>, \operatorname as an upright function name.
#include "math/parser.hpp"

namespace bb::math {

// \text{...}: characters as text, not math. Spaces at the edges become no-break spaces, since
// MathML trims the edges of token elements and `\text{ tile}` means the space.
std::optional<Node> Parser::parse_text(std::string_view name, std::size_t start, Alphabet alphabet) {
  skip_spaces();
  std::string text;
  const auto add = [&](std::string_view piece) {
    for (char c : piece) {
      if (is_letter(c) || is_digit(c)) {
        append_utf8(text, styled(static_cast<char32_t>(c), alphabet));
      } else {
        text += c;
      }
    }
  };
  if (peek() != '{') {
    if (at_end() || peek() == '\\') {
      error(start, "missing argument for \\" + std::string(name));
      return std::nullopt;
    }
    std::size_t length = 1;
    decode_utf8(src_, pos_, length);
    add(src_.substr(pos_, length));
    pos_ += length;
    return Node{element("mtext", text), Kind::Ordinary, {}, 0};
  }
  const std::size_t open = pos_++;
  int depth = 1;
  bool space_pending = false;
  while (!at_end()) {
    const char c = peek();
    if (c == '}' && --depth == 0) break;
    if (c == '{') ++depth;
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space_pending = true;
      ++pos_;
      continue;
    }
    if (space_pending) {
      text += ' ';
      space_pending = false;
    }
    if (c == '{' || c == '}') {
      ++pos_;
    } else if (c == '\\') {
      const std::size_t at = pos_;
      const std::string_view cmd = take_command();
      if (cmd.size() == 1 && std::string_view("%&#_{}$").find(cmd.front()) != std::string_view::npos) {
        text += cmd;
      } else if (cmd == " ") {
        text += ' ';
      } else if (cmd == ",") {
        text += "\u2009";
      } else {
        error(at, "unsupported TeX command \\" + std::string(cmd) + " inside \\" + std::string(name));
      }
    } else if (c == '~') {
      text += "\u00A0";
      ++pos_;
    } else if (c == '$') {
      error(pos_, "math inside \\" + std::string(name) + " is not supported");
      ++pos_;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      error(pos_, "unexpected control character");
      ++pos_;
    } else {
      std::size_t length = 1;
      const char32_t u = decode_utf8(src_, pos_, length);
      if (u == 0xFFFD && length == 1)
        error(pos_, "invalid UTF-8 in \\" + std::string(name));
      else
        add(src_.substr(pos_, length));
      pos_ += length;
    }
  }
  if (at_end()) {
    error(open, "missing } for this {");
  } else {
    ++pos_;
  }
  if (space_pending) text += ' ';
  // Edge spaces would be trimmed by MathML whitespace rules; keep them as no-break spaces.
  if (!text.empty() && text.front() == ' ') text.replace(0, 1, "\u00A0");
  if (!text.empty() && text.back() == ' ') text.replace(text.size() - 1, 1, "\u00A0");
  return Node{element("mtext", text), Kind::Ordinary, {}, 0};
}

// \operatorname{name} (\operatorname* takes limits like \max): an upright function name.
std::optional<Node> Parser::parse_operatorname(std::size_t start) {
  const bool limits = peek() == '*';
  if (limits) ++pos_;
  skip_spaces();
  if (peek() != '{') {
    error(start, "missing argument for \\operatorname");
    return std::nullopt;
  }
  const std::size_t open = pos_++;
  std::string text;
  while (!at_end() && peek() != '}') {
    const char c = peek();
    if (is_letter(c) || is_digit(c) || c == '-' || c == '.') {
      text += c == '-' ? "\u2212" : std::string(1, c);
      ++pos_;
    } else if (c == ' ') {
      ++pos_;
    } else if (command() == "," || command() == " ") {
      take_command();
      text += "\u2009";
    } else {
      error(pos_, "unsupported in \\operatorname: only letters, digits, - and \\, are allowed");
      ++pos_;
    }
  }
  if (at_end()) {
    error(open, "missing } for this {");
  } else {
    ++pos_;
  }
  const std::string xml = text.size() == 1 ? upright_identifier(text) : element("mi", text);
  return Node{xml, limits ? Kind::LimitFunction : Kind::Function, {}, 0};
}

// \tag{6-1}, \tag*{A}: the equation number, plain text. It is not typeset in the MathML (the
// writers print the number outside the formula), so here it is only read and checked.
void Parser::parse_tag(std::size_t start) {
  const bool starred = peek() == '*';
  if (starred) ++pos_;
  skip_spaces();
  const bool top_level = depth_ == 1 && frames_.empty();
  if (!display_formula_) {
    error(start, "\\tag is only allowed in display math ($$ … $$)");
  } else if (!top_level) {
    error(start, "\\tag must be at the top level of the formula, not inside braces or an environment");
  } else if (tag_) {
    error(start, "a formula can have only one \\tag");
  }
  if (peek() != '{') {
    error(start, "missing argument for \\tag");
    return;
  }
  const std::size_t open = pos_++;
  std::string text;
  bool valid = true;
  int depth = 0;  // braces inside the argument are refused, but skipped as pairs
  while (!at_end() && (peek() != '}' || depth > 0)) {
    const char c = peek();
    if (c == '\\' || c == '{' || c == '}' || c == '$' || c == '%' || c == '&' || c == '#' || c == '^' ||
        c == '_' || static_cast<unsigned char>(c) < 0x20) {
      if (valid) error(pos_, "\\tag takes plain text (a number such as 6-1), not TeX commands");
      valid = false;
      if (c == '{') ++depth;
      if (c == '}') --depth;
      if (c == '\\' && !command().empty()) {
        take_command();
      } else {
        ++pos_;
      }
      continue;
    }
    std::size_t length = 1;
    if (decode_utf8(src_, pos_, length) == 0xFFFD && length == 1) {
      error(pos_, "invalid UTF-8 in \\tag");
      valid = false;
    } else {
      text += src_.substr(pos_, length);
    }
    pos_ += length;
  }
  if (at_end()) {
    error(open, "missing } for this {");
    return;
  }
  ++pos_;
  const std::size_t first = text.find_first_not_of(' ');
  text =
      first == std::string::npos ? std::string() : text.substr(first, text.find_last_not_of(' ') - first + 1);
  if (text.empty()) {
    error(open, "empty \\tag");
    valid = false;
  }
  if (valid && display_formula_ && top_level && !tag_) tag_ = EquationTag{text, starred, start, pos_};
}

}  // namespace bb::math
