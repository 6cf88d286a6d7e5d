// The TeX-math-subset parser: reads one formula and writes presentation MathML as it goes,
// collecting an error (with its byte offset) for everything outside the subset.
#include "math/mathml.hpp"

#include <map>
#include <mutex>

#include <algorithm>
#include <optional>
#include <utility>

#include "math/symbols.hpp"
#include "math/unicode.hpp"

namespace bb::math {

namespace {

// Deep enough for any real formula, shallow enough that hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 64;

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

// What an open construct waits for; decides which terminator ends the list being parsed.
enum class Frame { Group, Left, Table, OptionalArgument };

void escape_into(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
}

std::string element(std::string_view tag, std::string_view text, std::string_view attributes = {}) {
  std::string out = "<";
  out += tag;
  if (!attributes.empty()) {
    out += ' ';
    out += attributes;
  }
  out += '>';
  escape_into(out, text);
  out += "</";
  out += tag;
  out += '>';
  return out;
}

std::string wrap(std::string_view tag, std::string_view inner, std::string_view attributes = {}) {
  std::string out = "<";
  out += tag;
  if (!attributes.empty()) {
    out += ' ';
    out += attributes;
  }
  out += '>';
  out += inner;
  out += "</";
  out += tag;
  out += '>';
  return out;
}

std::string upright_identifier(std::string_view letters) {
  return element("mi", letters, "mathvariant=\"normal\"");
}

std::string utf8(char32_t c) {
  std::string s;
  append_utf8(s, c);
  return s;
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Concatenates a row's nodes, inserting FUNCTION APPLICATION after a function name that is applied
// to something (`\sin\theta`, `\max(a,b)`), as MathML expects for speech and spacing.
std::string join(const std::vector<Node>& nodes) {
  std::string out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out += nodes[i].xml;
    const bool function = nodes[i].kind == Kind::Function || nodes[i].kind == Kind::LimitFunction;
    if (function && i + 1 < nodes.size()) {
      const Kind next = nodes[i + 1].kind;
      if (next == Kind::Ordinary || next == Kind::Open || next == Kind::Function ||
          next == Kind::LimitFunction || next == Kind::LargeOperator)
        out += "<mo>\u2061</mo>";
    }
  }
  return out;
}

// A row as one MathML element: a single node as it is, several inside <mrow>.
std::string row(const std::vector<Node>& nodes) {
  if (nodes.size() == 1) return nodes.front().xml;
  return wrap("mrow", join(nodes));
}

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
    {"array", "", "", 'c', false},
};

const Environment* find_environment(std::string_view name) {
  for (const Environment& e : kEnvironments)
    if (e.name == name) return &e;
  return nullptr;
}

std::string fence(std::string_view text, std::string_view form) {
  if (text.empty()) return {};
  std::string attributes = "fence=\"true\" form=\"";
  attributes += form;
  attributes += "\" stretchy=\"true\"";
  return element("mo", text, attributes);
}

class Parser {
 public:
  Parser(std::string_view tex, std::vector<MathError>& errors) : src_(tex), errors_(errors) {}

  std::string parse_formula(bool display) {
    display_style_ = display;
    std::vector<Node> nodes = parse_list();
    return nodes.empty() ? std::string() : row(nodes);
  }

 private:
  std::string_view src_;
  std::size_t pos_ = 0;
  std::vector<MathError>& errors_;
  std::vector<Frame> frames_;
  std::optional<Alphabet> font_;  // nullopt: TeX's default math italic; Normal: \mathrm
  bool display_style_ = false;
  int depth_ = 0;
  bool too_deep_ = false;

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) { ++p.depth_; }
    ~DepthGuard() { --p.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  void error(std::size_t offset, std::string message) { errors_.push_back({offset, std::move(message)}); }

  bool at_end() const { return pos_ >= src_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

  void skip_spaces() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
  }

  // The name of the command at pos_ (without the backslash), or empty when not at a command.
  // A name is a run of letters, or one character (`\,` `\{` `\\`).
  std::string_view command_at(std::size_t at) const {
    if (at >= src_.size() || src_[at] != '\\' || at + 1 >= src_.size()) return {};
    std::size_t end = at + 1;
    if (is_letter(src_[end])) {
      while (end < src_.size() && is_letter(src_[end])) ++end;
    } else {
      std::size_t length = 1;
      decode_utf8(src_, end, length);
      end += length;
    }
    return src_.substr(at + 1, end - at - 1);
  }
  std::string_view command() const { return command_at(pos_); }

  // Consumes the command at pos_ and returns its name.
  std::string_view take_command() {
    std::string_view name = command();
    pos_ += 1 + name.size();
    return name;
  }

  // Terminators end a list; which frame they belong to decides who handles them.
  std::optional<Frame> terminator_frame() const {
    const char c = peek();
    if (c == '}') return Frame::Group;
    if (c == '&') return Frame::Table;
    if (c == ']' && !frames_.empty() && frames_.back() == Frame::OptionalArgument)
      return Frame::OptionalArgument;
    if (c == '\\') {
      const std::string_view name = command();
      if (name == "\\" || name == "end") return Frame::Table;
      if (name == "right" || name == "middle") return Frame::Left;
    }
    return std::nullopt;
  }

  bool frame_open(Frame f) const { return std::find(frames_.begin(), frames_.end(), f) != frames_.end(); }

  // Reports and skips a terminator that no open construct is waiting for.
  void skip_stray_terminator() {
    const std::size_t start = pos_;
    if (peek() == '}') {
      error(start, "unmatched }");
      ++pos_;
    } else if (peek() == '&') {
      error(start, "& outside an aligned, cases, matrix or array environment");
      ++pos_;
    } else {
      const std::string_view name = take_command();
      if (name == "\\") {
        error(start, "\\\\ outside an aligned, cases, matrix or array environment");
      } else if (name == "end") {
        const std::string env = read_name();
        error(start, "\\end{" + env + "} without a matching \\begin");
      } else {
        error(start, "\\" + std::string(name) + " without a matching \\left");
        parse_delimiter(name);
      }
    }
  }

  // Parses atoms until the end of input or a terminator that an open construct is waiting for.
  std::vector<Node> parse_list() {
    std::vector<Node> nodes;
    while (true) {
      skip_spaces();
      if (at_end()) break;
      if (const std::optional<Frame> f = terminator_frame()) {
        if (frame_open(*f)) break;
        skip_stray_terminator();
        continue;
      }
      const std::string_view name = command();
      if (name == "displaystyle" || name == "textstyle") {
        take_command();
        const bool saved = display_style_;
        display_style_ = name == "displaystyle";
        std::vector<Node> rest = parse_list();
        display_style_ = saved;
        nodes.push_back({wrap("mstyle", join(rest),
                              name == "displaystyle" ? "displaystyle=\"true\"" : "displaystyle=\"false\""),
                         Kind::Ordinary,
                         {},
                         0});
        break;
      }
      const std::size_t before = pos_;
      std::optional<Node> atom = parse_atom(false);
      if (atom) {
        Node node = parse_scripts(std::move(*atom));
        if (!node.letters.empty() && !nodes.empty() && !nodes.back().letters.empty()) {
          nodes.back().letters += node.letters;
          nodes.back().xml = upright_identifier(nodes.back().letters);
        } else if (!node.xml.empty()) {
          nodes.push_back(std::move(node));
        }
      }
      if (pos_ == before && !at_end()) ++pos_;  // never loop without progress
      if (too_deep_) break;
    }
    return nodes;
  }

  // One argument of a command or script: a group, one command, or one character (one digit of a
  // number, as in TeX: `x^10` is x¹0).
  std::optional<Node> parse_argument(std::string_view owner, std::size_t owner_offset) {
    skip_spaces();
    if (at_end() || terminator_frame() || peek() == '^' || peek() == '_') {
      error(owner_offset, "missing argument for " + std::string(owner));
      return std::nullopt;
    }
    return parse_atom(true);
  }

  std::optional<Node> parse_atom(bool single) {
    DepthGuard guard(*this);
    if (depth_ > kMaxDepth) {
      if (!too_deep_) error(pos_, "formula nests more than " + std::to_string(kMaxDepth) + " levels deep");
      too_deep_ = true;
      pos_ = src_.size();
      return std::nullopt;
    }
    skip_spaces();
    if (at_end()) return std::nullopt;
    const std::size_t start = pos_;
    const char c = peek();
    if (c == '^' || c == '_' || c == '\'') return Node{"<mrow></mrow>", Kind::Ordinary, {}, 0};
    if (c == '{') return parse_group();
    if (c == '\\') return parse_command();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return parse_number(single);
    if (is_letter(c)) {
      ++pos_;
      return letter(static_cast<char32_t>(c));
    }
    if (static_cast<unsigned char>(c) >= 0x80) return parse_unicode();
    ++pos_;
    switch (c) {
      case '+':
      case '=':
      case '<':
      case '>':
      case ',':
      case ';':
      case ':':
      case '!':
      case '?': return Node{element("mo", std::string(1, c)), Kind::Operator, {}, 0};
      case '-': return Node{element("mo", "\u2212"), Kind::Operator, {}, 0};
      case '*': return Node{element("mo", "\u2217"), Kind::Operator, {}, 0};
      case '(':
      case '[': return Node{element("mo", std::string(1, c), "stretchy=\"false\""), Kind::Open, {}, 0};
      case ')':
      case ']': return Node{element("mo", std::string(1, c), "stretchy=\"false\""), Kind::Close, {}, 0};
      case '|': return Node{element("mo", "|", "stretchy=\"false\""), Kind::Ordinary, {}, 0};
      case '/':
      case '.':
      case '@':
      case '"':
      case '`': return Node{element("mi", std::string(1, c)), Kind::Ordinary, {}, 0};
      case '~': return space("0.3333em");
      case '%': error(start, "unescaped % would start a TeX comment; write \\%"); break;
      case '#': error(start, "unescaped #; write \\#"); break;
      case '$': error(start, "unexpected $ inside math"); break;
      default: error(start, "unexpected character in math"); break;
    }
    return std::nullopt;
  }

  static Node space(std::string_view width) {
    std::string attributes = "width=\"";
    attributes += width;
    attributes += '"';
    return Node{"<mspace " + attributes + "/>", Kind::Space, {}, 0};
  }

  // A letter in the current font: separate variables in math italic, an upright run in \mathrm,
  // a Mathematical Alphanumeric Symbol in \mathbf, \mathbb ...
  Node letter(char32_t c) const {
    if (!font_) return Node{element("mi", utf8(c)), Kind::Ordinary, {}, 0};
    if (*font_ == Alphabet::Normal) return Node{upright_identifier(utf8(c)), Kind::Ordinary, utf8(c), 0};
    return Node{element("mi", utf8(styled(c, *font_))), Kind::Ordinary, {}, 0};
  }

  Node parse_group() {
    const std::size_t open = pos_++;
    frames_.push_back(Frame::Group);
    std::vector<Node> nodes = parse_list();
    frames_.pop_back();
    if (peek() == '}') {
      ++pos_;
    } else if (!too_deep_) {
      error(open, "missing } for this {");
    }
    if (nodes.empty()) return Node{"<mrow></mrow>", Kind::Ordinary, {}, 0};
    if (nodes.size() == 1) return nodes.front();  // keeps a lone letter run mergeable: \mathrm{d}
    return Node{row(nodes), Kind::Ordinary, {}, 0};
  }

  // Digits with an optional decimal part; `\,` between groups of three digits (33\,554\,432)
  // stays inside the number, as a thin space, since it is one quantity.
  Node parse_number(bool single) {
    const std::size_t start = pos_;
    const auto digits = [&] {
      while (is_digit(peek())) ++pos_;
    };
    if (single) {
      ++pos_;
    } else {
      digits();
      if (peek() == '.' && is_digit(peek(1))) {
        ++pos_;
        digits();
      }
    }
    std::string text(src_.substr(start, pos_ - start));
    while (!single && peek() == '\\' && peek(1) == ',' && is_digit(peek(2)) && is_digit(peek(3)) &&
           is_digit(peek(4)) && !is_digit(peek(5))) {
      text += "\u2009";
      text += src_.substr(pos_ + 2, 3);
      pos_ += 5;
    }
    if (font_ && *font_ != Alphabet::Normal) {
      std::string styled_text;
      for (char d : text)
        append_utf8(styled_text, is_digit(d) ? styled(static_cast<char32_t>(d), *font_) : d);
      text = std::move(styled_text);
    }
    return Node{element("mn", text), Kind::Ordinary, {}, 0};
  }

  // Characters typed directly: CJK words become <mtext>, known operators <mo>, the rest <mi>.
  std::optional<Node> parse_unicode() {
    const std::size_t start = pos_;
    std::size_t length = 1;
    const char32_t c = decode_utf8(src_, pos_, length);
    if (c == 0xFFFD && length == 1) {
      ++pos_;
      error(start, "invalid UTF-8 in math");
      return std::nullopt;
    }
    if (is_cjk(c)) {
      std::string text;
      while (!at_end() && static_cast<unsigned char>(peek()) >= 0x80) {
        const char32_t d = decode_utf8(src_, pos_, length);
        if (!is_cjk(d)) break;
        text += src_.substr(pos_, length);
        pos_ += length;
      }
      return Node{element("mtext", text), Kind::Ordinary, {}, 0};
    }
    pos_ += length;
    const std::string text(src_.substr(start, length));
    if (const Symbol* s = find_symbol_by_text(text)) return symbol(*s);
    if (c == 0x00A0 || c == 0x3000) return space("0.3333em");
    return letter(c);
  }

  Node symbol(const Symbol& s) const {
    switch (s.cls) {
      case SymbolClass::Ordinary:
      case SymbolClass::Upright: {
        std::size_t length = 0;
        const char32_t c = decode_utf8(s.text, 0, length);
        const bool greek = c >= 0x391 && c <= 0x3C9;
        if (greek && font_) return letter(c);
        if (s.cls == SymbolClass::Upright) return Node{upright_identifier(s.text), Kind::Ordinary, {}, 0};
        return Node{element("mi", s.text), Kind::Ordinary, {}, 0};
      }
      case SymbolClass::Operator: return Node{element("mo", s.text), Kind::Operator, {}, 0};
      case SymbolClass::Open: return Node{element("mo", s.text, "stretchy=\"false\""), Kind::Open, {}, 0};
      case SymbolClass::Close: return Node{element("mo", s.text, "stretchy=\"false\""), Kind::Close, {}, 0};
      case SymbolClass::Fence:
        return Node{element("mo", s.text, "stretchy=\"false\""), Kind::Ordinary, {}, 0};
      case SymbolClass::LargeOperator: return Node{element("mo", s.text), Kind::LargeOperator, {}, 0};
      case SymbolClass::Integral: return Node{element("mo", s.text), Kind::Integral, {}, 0};
      case SymbolClass::Function: return Node{element("mi", s.text), Kind::Function, {}, 0};
      case SymbolClass::LimitFunction: return Node{element("mi", s.text), Kind::LimitFunction, {}, 0};
    }
    return Node{};
  }

  std::optional<Node> parse_command() {
    const std::size_t start = pos_;
    const std::string_view name = take_command();
    if (name.empty()) {
      ++pos_;
      error(start, "a formula cannot end with a backslash");
      return std::nullopt;
    }
    if (const std::optional<std::string_view> width = find_space(name)) return space(*width);
    if (const Accent* a = find_accent(name)) return parse_accent(*a, start);
    if (const Symbol* s = find_symbol(name)) return symbol(*s);
    if (name == "frac" || name == "dfrac" || name == "tfrac") return parse_fraction(name, start, false);
    if (name == "binom" || name == "dbinom" || name == "tbinom") return parse_fraction(name, start, true);
    if (name == "sqrt") return parse_sqrt(start);
    if (name == "left") return parse_left(start);
    if (name == "begin") return parse_environment(start);
    if (name == "text" || name == "textrm" || name == "textnormal" || name == "mbox")
      return parse_text(name, start, Alphabet::Normal);
    if (name == "textbf") return parse_text(name, start, Alphabet::Bold);
    if (name == "textit") return parse_text(name, start, Alphabet::Italic);
    if (name == "textsf") return parse_text(name, start, Alphabet::SansSerif);
    if (name == "texttt") return parse_text(name, start, Alphabet::Monospace);
    if (name == "operatorname") return parse_operatorname(start);
    if (name == "overset" || name == "stackrel" || name == "underset") return parse_overset(name, start);
    if (std::optional<std::optional<Alphabet>> font = math_font(name)) return parse_font(name, start, *font);
    if (std::optional<Node> big = parse_big(name)) return big;
    if (name == "limits" || name == "nolimits") {
      error(start, "\\" + std::string(name) + " must follow an operator such as \\sum");
      return std::nullopt;
    }
    error(start, "unsupported TeX command \\" + std::string(name));
    return Node{wrap("merror", element("mtext", "\\" + std::string(name))), Kind::Ordinary, {}, 0};
  }

  static std::optional<std::optional<Alphabet>> math_font(std::string_view name) {
    if (name == "mathrm" || name == "mathup") return Alphabet::Normal;
    if (name == "mathbf") return Alphabet::Bold;
    if (name == "mathit") return Alphabet::Italic;
    if (name == "boldsymbol" || name == "bm") return Alphabet::BoldItalic;
    if (name == "mathcal" || name == "mathscr") return Alphabet::Script;
    if (name == "mathfrak") return Alphabet::Fraktur;
    if (name == "mathbb") return Alphabet::DoubleStruck;
    if (name == "mathsf") return Alphabet::SansSerif;
    if (name == "mathtt") return Alphabet::Monospace;
    if (name == "mathnormal") return std::optional<Alphabet>();
    return std::nullopt;
  }

  std::optional<Node> parse_font(std::string_view name, std::size_t start, std::optional<Alphabet> font) {
    const std::optional<Alphabet> saved = font_;
    font_ = font;
    std::optional<Node> arg = parse_argument("\\" + std::string(name), start);
    font_ = saved;
    return arg;
  }

  std::optional<Node> parse_accent(const Accent& a, std::size_t start) {
    std::optional<Node> base = parse_argument("\\" + std::string(a.name), start);
    if (!base) return std::nullopt;
    const std::string mark = element("mo", a.text, a.stretchy ? "stretchy=\"true\"" : "stretchy=\"false\"");
    if (a.brace) return Node{wrap(a.under ? "munder" : "mover", base->xml + mark), Kind::Brace, {}, 0};
    if (a.under) return Node{wrap("munder", base->xml + mark, "accentunder=\"true\""), Kind::Ordinary, {}, 0};
    return Node{wrap("mover", base->xml + mark, "accent=\"true\""), Kind::Ordinary, {}, 0};
  }

  // Fraction parts are in text style, so \sum inside them takes side limits, as in TeX.
  std::optional<Node> parse_fraction(std::string_view name, std::size_t start, bool binomial) {
    const bool saved = display_style_;
    display_style_ = false;
    const std::string owner = "\\" + std::string(name);
    std::optional<Node> num = parse_argument(owner, start);
    std::optional<Node> den = num ? parse_argument(owner, start) : std::nullopt;
    display_style_ = saved;
    if (!num || !den) return std::nullopt;
    std::string xml = wrap("mfrac", num->xml + den->xml, binomial ? "linethickness=\"0\"" : "");
    if (binomial) xml = wrap("mrow", fence("(", "prefix") + xml + fence(")", "postfix"));
    if (name.front() == 'd') xml = wrap("mstyle", xml, "displaystyle=\"true\"");
    if (name.front() == 't') xml = wrap("mstyle", xml, "displaystyle=\"false\"");
    return Node{xml, Kind::Ordinary, {}, 0};
  }

  std::optional<Node> parse_sqrt(std::size_t start) {
    skip_spaces();
    std::optional<std::string> index;
    if (peek() == '[') {
      const std::size_t open = pos_++;
      frames_.push_back(Frame::OptionalArgument);
      std::vector<Node> nodes = parse_list();
      frames_.pop_back();
      if (peek() == ']') {
        ++pos_;
      } else {
        error(open, "missing ] for this [");
      }
      index = nodes.empty() ? std::string("<mrow></mrow>") : row(nodes);
    }
    std::optional<Node> base = parse_argument("\\sqrt", start);
    if (!base) return std::nullopt;
    if (index) return Node{wrap("mroot", base->xml + *index), Kind::Ordinary, {}, 0};
    return Node{wrap("msqrt", base->xml), Kind::Ordinary, {}, 0};
  }

  // The delimiter after \left, \right, \middle or \big: its text, empty for `.`; nullopt if none.
  std::optional<std::string> parse_delimiter(std::string_view owner) {
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

  std::optional<Node> parse_left(std::size_t start) {
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
  std::optional<Node> parse_big(std::string_view name) {
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

  // A `{name}` argument read as plain characters (environment names, array column specs).
  std::string read_name() {
    skip_spaces();
    if (peek() != '{') return {};
    const std::size_t open = pos_++;
    const std::size_t close = src_.find('}', pos_);
    if (close == std::string_view::npos) {
      error(open, "missing } for this {");
      pos_ = src_.size();
      return {};
    }
    std::string name(src_.substr(pos_, close - pos_));
    pos_ = close + 1;
    return name;
  }

  std::optional<Node> parse_environment(std::size_t start) {
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

  // \text{...}: characters as text, not math. Spaces at the edges become no-break spaces, since
  // MathML trims the edges of token elements and `\text{ tile}` means the space.
  std::optional<Node> parse_text(std::string_view name, std::size_t start, Alphabet alphabet) {
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
  std::optional<Node> parse_operatorname(std::size_t start) {
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

  std::optional<Node> parse_overset(std::string_view name, std::size_t start) {
    const std::string owner = "\\" + std::string(name);
    const bool saved = display_style_;
    display_style_ = false;
    std::optional<Node> mark = parse_argument(owner, start);
    display_style_ = saved;
    std::optional<Node> base = mark ? parse_argument(owner, start) : std::nullopt;
    if (!base) return std::nullopt;
    const Kind kind = base->kind == Kind::Operator ? Kind::Operator : Kind::Ordinary;
    return Node{wrap(name == "underset" ? "munder" : "mover", base->xml + mark->xml), kind, {}, 0};
  }

  // Subscripts, superscripts and primes after a base. Large operators and \max-like functions put
  // them under and over in display style (and with \limits), everything else to the side.
  Node parse_scripts(Node base) {
    std::optional<Node> sub, sup;
    int primes = 0;
    while (true) {
      skip_spaces();
      const std::size_t at = pos_;
      const char c = peek();
      if (c == '\'') {
        if (sup) error(at, "double superscript (a prime after ^)");
        ++primes;
        ++pos_;
      } else if (c == '^' || c == '_') {
        ++pos_;
        const bool saved = display_style_;
        display_style_ = false;
        skip_spaces();
        const bool digit = is_digit(peek());
        std::optional<Node> arg = parse_argument(std::string(1, c), at);
        display_style_ = saved;
        // TeX takes one digit (x^10 is x¹0) where pandoc and most readers take the number, so the
        // PDF and the web page would differ: ask for braces.
        if (digit && is_digit(peek())) {
          std::size_t end = pos_;
          while (end < src_.size() && is_digit(src_[end])) ++end;
          const std::string number(src_.substr(pos_ - 1, end - pos_ + 1));
          error(at, std::string(c == '^' ? "superscript " : "subscript ") + number +
                        " needs braces: TeX reads " + c + number + " as " + c + "{" + number.substr(0, 1) +
                        "}" + number.substr(1) + "; write " + c + "{" + number + "}");
        }
        std::optional<Node>& slot = c == '^' ? sup : sub;
        if (slot) {
          error(at, c == '^' ? "double superscript" : "double subscript");
        } else if (arg) {
          slot = std::move(arg);
        } else {
          slot = Node{"<mrow></mrow>", Kind::Ordinary, {}, 0};
        }
      } else if (command() == "limits" || command() == "nolimits") {
        base.limits = command() == "limits" ? 1 : -1;
        take_command();
      } else {
        break;
      }
    }
    if (!sub && !sup && primes == 0) return base;
    std::string sup_xml;
    if (primes > 0) {
      static constexpr std::string_view kPrimes[] = {"′", "″", "‴", "⁗"};
      std::string text;
      for (int left = primes; left > 0; left -= 4) text += kPrimes[std::min(left, 4) - 1];
      sup_xml = element("mo", text);
      if (sup) sup_xml = wrap("mrow", sup_xml + sup->xml);
    } else if (sup) {
      sup_xml = sup->xml;
    }
    const bool movable = base.kind == Kind::LargeOperator || base.kind == Kind::LimitFunction;
    const bool under_over = base.kind == Kind::Brace ||
                            (base.limits > 0 && (movable || base.kind == Kind::Integral)) ||
                            (base.limits == 0 && movable && display_style_);
    std::string xml;
    if (sub && !sup_xml.empty()) {
      xml = wrap(under_over ? "munderover" : "msubsup", base.xml + sub->xml + sup_xml);
    } else if (sub) {
      xml = wrap(under_over ? "munder" : "msub", base.xml + sub->xml);
    } else {
      xml = wrap(under_over ? "mover" : "msup", base.xml + sup_xml);
    }
    Kind kind = base.kind;
    if (kind == Kind::Brace || kind == Kind::Space || kind == Kind::Open || kind == Kind::Close)
      kind = Kind::Ordinary;
    return Node{xml, kind, {}, 0};
  }
};

// The TeX for alttext: escaped for an attribute, newlines kept as character references, and
// anything that is not valid in XML (control characters, malformed UTF-8) replaced by U+FFFD.
std::string alttext(std::string_view tex) {
  std::string out;
  for (std::size_t i = 0; i < tex.size();) {
    std::size_t length = 1;
    const char32_t c = decode_utf8(tex, i, length);
    if (c == '\n') {
      out += "&#10;";
    } else if (c == '\t' || c == '\r') {
      out += ' ';
    } else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF || (c == 0xFFFD && length == 1)) {
      out += "\uFFFD";
    } else {
      escape_into(out, tex.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace

MathResult to_mathml(std::string_view tex, bool display) {
  MathResult result;
  Parser parser(tex, result.errors);
  const std::string body = parser.parse_formula(display);
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const MathError& a, const MathError& b) { return a.offset < b.offset; });
  result.mathml = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"";
  result.mathml += display ? "block" : "inline";
  result.mathml += "\" alttext=\"";
  result.mathml += alttext(tex);
  result.mathml += "\">";
  result.mathml += body;
  result.mathml += "</math>";
  return result;
}

TexPosition position_in(std::string_view tex, std::size_t offset) {
  offset = std::min(offset, tex.size());
  TexPosition p;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (tex[i] == '\n') {
      ++p.line_delta;
      line_start = i + 1;
    }
  }
  p.column = offset - line_start;
  return p;
}

}  // namespace bb::math

namespace bb::math {

const MathResult& to_mathml_cached(const std::string& tex, bool display) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, MathResult> cache;
  std::lock_guard lock(mutex);
  auto [it, inserted] = cache.try_emplace({tex, display});
  if (inserted) it->second = to_mathml(tex, display);
  return it->second;  // std::map never moves its elements
}

}  // namespace bb::math
