// The parser's core: lists of atoms, groups, numbers, letters and symbols, commands with
// arguments (fractions, roots, accents, fonts) and the scripts that attach to a base.
#include "math/parser.hpp"

#include <algorithm>
#include <utility>

namespace bb::math {

namespace {

// Deep enough for any real formula, shallow enough that hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 64;

// "\\name", as a command is written in messages. Built by appending: `"\\" + std::string(name)`
// inlines std::string's insert at -O3, where GCC 12 reports a -Wrestrict overlap that cannot happen
// (GCC bug 105329).
std::string command_text(std::string_view name) {
  std::string text;
  text.reserve(name.size() + 1);
  text += '\\';
  text.append(name);
  return text;
}

std::optional<std::optional<Alphabet>> math_font(std::string_view name) {
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

}  // namespace

std::string Parser::parse_formula(bool display) {
  display_style_ = display;
  display_formula_ = display;
  std::vector<Node> nodes = parse_list();
  return nodes.empty() ? std::string() : row(nodes);
}

// Terminators end a list; which frame they belong to decides who handles them.
std::optional<Frame> Parser::terminator_frame() const {
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

bool Parser::frame_open(Frame f) const {
  return std::find(frames_.begin(), frames_.end(), f) != frames_.end();
}

// Reports and skips a terminator that no open construct is waiting for.
void Parser::skip_stray_terminator() {
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
      error(start, command_text(name) + " without a matching \\left");
      parse_delimiter(name);
    }
  }
}

// Parses atoms until the end of input or a terminator that an open construct is waiting for.
std::vector<Node> Parser::parse_list() {
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
std::optional<Node> Parser::parse_argument(std::string_view owner, std::size_t owner_offset) {
  skip_spaces();
  if (at_end() || terminator_frame() || peek() == '^' || peek() == '_') {
    error(owner_offset, "missing argument for " + std::string(owner));
    return std::nullopt;
  }
  return parse_atom(true);
}

std::optional<Node> Parser::parse_atom(bool single) {
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

// A letter in the current font: separate variables in math italic, an upright run in \mathrm,
// a Mathematical Alphanumeric Symbol in \mathbf, \mathbb ...
Node Parser::letter(char32_t c) const {
  if (!font_) return Node{element("mi", utf8(c)), Kind::Ordinary, {}, 0};
  if (*font_ == Alphabet::Normal) return Node{upright_identifier(utf8(c)), Kind::Ordinary, utf8(c), 0};
  return Node{element("mi", utf8(styled(c, *font_))), Kind::Ordinary, {}, 0};
}

Node Parser::parse_group() {
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
Node Parser::parse_number(bool single) {
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
    for (char d : text) append_utf8(styled_text, is_digit(d) ? styled(static_cast<char32_t>(d), *font_) : d);
    text = std::move(styled_text);
  }
  return Node{element("mn", text), Kind::Ordinary, {}, 0};
}

// Characters typed directly: CJK words become <mtext>, known operators <mo>, the rest <mi>.
std::optional<Node> Parser::parse_unicode() {
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

Node Parser::symbol(const Symbol& s) const {
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
    case SymbolClass::Fence: return Node{element("mo", s.text, "stretchy=\"false\""), Kind::Ordinary, {}, 0};
    case SymbolClass::LargeOperator: return Node{element("mo", s.text), Kind::LargeOperator, {}, 0};
    case SymbolClass::Integral: return Node{element("mo", s.text), Kind::Integral, {}, 0};
    case SymbolClass::Function: return Node{element("mi", s.text), Kind::Function, {}, 0};
    case SymbolClass::LimitFunction: return Node{element("mi", s.text), Kind::LimitFunction, {}, 0};
  }
  return Node{};
}

std::optional<Node> Parser::parse_command() {
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
  if (name == "cfrac") return parse_fraction(name, start, false);
  if (name == "xrightarrow" || name == "xleftarrow") return parse_extensible_arrow(name, start);
  if (name == "not") return parse_not(start);
  if (name == "boxed" || name == "phantom" || name == "hphantom" || name == "vphantom" || name == "pmod")
    return parse_wrapper(name, start);
  // Equation numbering is the writers' (see \tag): inside a formula these say "no number".
  if (name == "notag" || name == "nonumber") return std::nullopt;
  if (name == "left") return parse_left(start);
  if (name == "begin") return parse_environment(start);
  if (name == "text" || name == "textrm" || name == "textnormal" || name == "mbox")
    return parse_text(name, start, Alphabet::Normal);
  if (name == "textbf") return parse_text(name, start, Alphabet::Bold);
  if (name == "textit") return parse_text(name, start, Alphabet::Italic);
  if (name == "textsf") return parse_text(name, start, Alphabet::SansSerif);
  if (name == "texttt") return parse_text(name, start, Alphabet::Monospace);
  if (name == "operatorname") return parse_operatorname(start);
  if (name == "tag") {
    parse_tag(start);
    return std::nullopt;
  }
  if (name == "overset" || name == "stackrel" || name == "underset") return parse_overset(name, start);
  if (std::optional<std::optional<Alphabet>> font = math_font(name)) return parse_font(name, start, *font);
  if (std::optional<Node> big = parse_big(name)) return big;
  if (name == "limits" || name == "nolimits") {
    error(start, command_text(name) + " must follow an operator such as \\sum");
    return std::nullopt;
  }
  error(start, "unsupported TeX command \\" + std::string(name));
  return Node{wrap("merror", element("mtext", command_text(name))), Kind::Ordinary, {}, 0};
}

std::optional<Node> Parser::parse_font(std::string_view name, std::size_t start,
                                       std::optional<Alphabet> font) {
  const std::optional<Alphabet> saved = font_;
  font_ = font;
  std::optional<Node> arg = parse_argument(command_text(name), start);
  font_ = saved;
  return arg;
}

std::optional<Node> Parser::parse_accent(const Accent& a, std::size_t start) {
  std::optional<Node> base = parse_argument(command_text(a.name), start);
  if (!base) return std::nullopt;
  const std::string mark = element("mo", a.text, a.stretchy ? "stretchy=\"true\"" : "stretchy=\"false\"");
  if (a.brace) return Node{wrap(a.under ? "munder" : "mover", base->xml + mark), Kind::Brace, {}, 0};
  if (a.under) return Node{wrap("munder", base->xml + mark, "accentunder=\"true\""), Kind::Ordinary, {}, 0};
  return Node{wrap("mover", base->xml + mark, "accent=\"true\""), Kind::Ordinary, {}, 0};
}

// Fraction parts are in text style, so \sum inside them takes side limits, as in TeX.
std::optional<Node> Parser::parse_fraction(std::string_view name, std::size_t start, bool binomial) {
  const bool saved = display_style_;
  display_style_ = false;
  const std::string owner = command_text(name);
  std::optional<Node> num = parse_argument(owner, start);
  std::optional<Node> den = num ? parse_argument(owner, start) : std::nullopt;
  display_style_ = saved;
  if (!num || !den) return std::nullopt;
  std::string xml = wrap("mfrac", num->xml + den->xml, binomial ? "linethickness=\"0\"" : "");
  if (binomial) xml = wrap("mrow", fence("(", "prefix") + xml + fence(")", "postfix"));
  if (name.front() == 'd' || name == "cfrac") xml = wrap("mstyle", xml, "displaystyle=\"true\"");
  if (name.front() == 't') xml = wrap("mstyle", xml, "displaystyle=\"false\"");
  return Node{xml, Kind::Ordinary, {}, 0};
}

std::optional<std::string> Parser::parse_optional_argument() {
  skip_spaces();
  if (peek() != '[') return std::nullopt;
  const std::size_t open = pos_++;
  frames_.push_back(Frame::OptionalArgument);
  std::vector<Node> nodes = parse_list();
  frames_.pop_back();
  if (peek() == ']') {
    ++pos_;
  } else {
    error(open, "missing ] for this [");
  }
  return nodes.empty() ? std::string("<mrow></mrow>") : row(nodes);
}

std::optional<Node> Parser::parse_sqrt(std::size_t start) {
  const std::optional<std::string> index = parse_optional_argument();
  std::optional<Node> base = parse_argument("\\sqrt", start);
  if (!base) return std::nullopt;
  if (index) return Node{wrap("mroot", base->xml + *index), Kind::Ordinary, {}, 0};
  return Node{wrap("msqrt", base->xml), Kind::Ordinary, {}, 0};
}

// \xrightarrow[below]{above}, \xleftarrow: an arrow as long as its labels (a stretchy <mo>).
std::optional<Node> Parser::parse_extensible_arrow(std::string_view name, std::size_t start) {
  const bool saved = display_style_;
  display_style_ = false;
  const std::optional<std::string> below = parse_optional_argument();
  std::optional<Node> above = parse_argument(command_text(name), start);
  display_style_ = saved;
  if (!above) return std::nullopt;
  const std::string arrow = element("mo", name == "xrightarrow" ? "\u2192" : "\u2190", "stretchy=\"true\"");
  if (below) return Node{wrap("munderover", arrow + *below + above->xml), Kind::Operator, {}, 0};
  return Node{wrap("mover", arrow + above->xml), Kind::Operator, {}, 0};
}

// \not before a relation: the negated relation, where Unicode has it as one character.
std::optional<Node> Parser::parse_not(std::size_t start) {
  static constexpr std::pair<std::string_view, std::string_view> kNegated[] = {
      {"=", "≠"},        {"<", "≮"},          {">", "≯"},          {"\\in", "∉"},    {"\\ni", "∌"},
      {"\\le", "≰"},     {"\\leq", "≰"},      {"\\ge", "≱"},       {"\\geq", "≱"},   {"\\subset", "⊄"},
      {"\\supset", "⊅"}, {"\\subseteq", "⊈"}, {"\\supseteq", "⊉"}, {"\\equiv", "≢"}, {"\\sim", "≁"},
      {"\\simeq", "≄"},  {"\\approx", "≉"},   {"\\cong", "≇"},     {"\\mid", "∤"},   {"\\parallel", "∦"},
      {"\\exists", "∄"},
  };
  skip_spaces();
  const std::string_view name = command();
  const std::string_view token =
      name.empty() ? src_.substr(pos_, at_end() ? 0 : 1) : src_.substr(pos_, 1 + name.size());
  for (const auto& [from, to] : kNegated) {
    if (token == from) {
      pos_ += token.size();
      return Node{element(to == "∄" ? "mi" : "mo", to), to == "∄" ? Kind::Ordinary : Kind::Operator, {}, 0};
    }
  }
  error(start,
        "\\not must come before a relation that Unicode negates (= < > \\in \\le \\ge \\subset \\equiv \\sim "
        "\\approx \\mid …)");
  return std::nullopt;
}

// \boxed, \phantom, \hphantom, \vphantom, \pmod: one argument inside a layout element.
std::optional<Node> Parser::parse_wrapper(std::string_view name, std::size_t start) {
  std::optional<Node> arg = parse_argument(command_text(name), start);
  if (!arg) return std::nullopt;
  if (name == "boxed") return Node{wrap("menclose", arg->xml, "notation=\"box\""), Kind::Ordinary, {}, 0};
  if (name == "pmod") {
    return Node{
        wrap("mrow", space("1em").xml + element("mo", "(", "stretchy=\"false\"") + upright_identifier("mod") +
                         space("0.3333em").xml + arg->xml + element("mo", ")", "stretchy=\"false\"")),
        Kind::Ordinary,
        {},
        0};
  }
  std::string xml = wrap("mphantom", arg->xml);
  if (name == "hphantom") xml = wrap("mpadded", xml, "height=\"0\" depth=\"0\"");
  if (name == "vphantom") xml = wrap("mpadded", xml, "width=\"0\"");
  return Node{xml, Kind::Ordinary, {}, 0};
}

std::optional<Node> Parser::parse_overset(std::string_view name, std::size_t start) {
  const std::string owner = command_text(name);
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
Node Parser::parse_scripts(Node base) {
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

}  // namespace bb::math
