// Parsing and evaluating argument formulas (see formula.hpp).
#include "calc/formula.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "calc/checked_int.hpp"
#include "calc/error.hpp"

namespace bb::calc {
namespace {

struct Token {
  enum class Kind { Number, Reference, Op, Open, Close, End } kind = Kind::End;
  std::string text;
};

struct Num {
  bool exact = true;
  Int integer = 0;
  double real = 0;
  double value() const { return exact ? static_cast<double>(integer.value()) : real; }
};

std::vector<Token> tokenize(std::string_view f) {
  std::vector<Token> out;
  size_t i = 0;
  auto is_op = [](char c) { return c == '+' || c == '-' || c == '*' || c == '/'; };
  while (i < f.size()) {
    char c = f[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    // At the start of a token '-' is an operator; inside a word it joins the parts of a scenario id.
    if (is_op(c)) {
      out.push_back({Token::Kind::Op, std::string(1, c)});
      ++i;
      continue;
    }
    if (c == '(') {
      out.push_back({Token::Kind::Open, "("});
      ++i;
      continue;
    }
    if (c == ')') {
      out.push_back({Token::Kind::Close, ")"});
      ++i;
      continue;
    }
    // A word: letters, digits, '_', '-', '.', and bracketed or parenthesised groups (call arguments, keys).
    size_t start = i;
    int depth = 0;
    while (i < f.size()) {
      char d = f[i];
      if (d == '(' || d == '[') {
        if (d == '(' && i == start) break;
        ++depth;
      } else if (d == ')' || d == ']') {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 &&
                 !(std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '-' || d == '.')) {
        break;
      }
      ++i;
    }
    if (i == start) throw Error("unexpected '" + std::string(1, c) + "' in formula '" + std::string(f) + "'");
    if (depth != 0) throw Error("unbalanced brackets in formula '" + std::string(f) + "'");
    std::string word(f.substr(start, i - start));
    double d = 0;
    auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), d);
    bool number = ec == std::errc() && p == word.data() + word.size();
    out.push_back({number ? Token::Kind::Number : Token::Kind::Reference, word});
  }
  out.push_back({Token::Kind::End, ""});
  return out;
}

std::string_view body(std::string_view formula) {
  if (!formula.empty() && formula.front() == '=') formula.remove_prefix(1);
  return formula;
}

class Parser {
 public:
  Parser(std::string_view text, const std::function<Json(const std::string&)>* lookup)
      : text_(text), tokens_(tokenize(text)), lookup_(lookup) {}

  Num parse() {
    Num v = expr();
    if (peek().kind != Token::Kind::End) fail("unexpected '" + peek().text + "'");
    return v;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_++]; }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("formula '=" + std::string(text_) + "': " + what);
  }

  Num expr() {
    Num v = term();
    while (peek().kind == Token::Kind::Op && (peek().text == "+" || peek().text == "-")) {
      char op = next().text[0];
      v = apply(op, v, term());
    }
    return v;
  }
  Num term() {
    Num v = factor();
    while (peek().kind == Token::Kind::Op && (peek().text == "*" || peek().text == "/")) {
      char op = next().text[0];
      v = apply(op, v, factor());
    }
    return v;
  }
  Num factor() {
    const Token& t = next();
    switch (t.kind) {
      case Token::Kind::Op:
        if (t.text == "-") return apply('-', Num{}, factor());
        fail("expected a number or a reference before '" + t.text + "'");
      case Token::Kind::Open: {
        Num v = expr();
        if (next().kind != Token::Kind::Close) fail("missing ')'");
        return v;
      }
      case Token::Kind::Number: return number(t.text);
      case Token::Kind::Reference: return reference(t.text);
      default: fail("expected a number or a reference");
    }
  }

  static Num number(const std::string& text) {
    Num n;
    std::int64_t i = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (ec == std::errc() && p == text.data() + text.size()) {
      n.integer = i;
      return n;
    }
    n.exact = false;
    std::from_chars(text.data(), text.data() + text.size(), n.real);
    return n;
  }

  Num reference(const std::string& ref) {
    refs_.push_back(ref);
    if (!lookup_) return Num{true, 1, 0};
    Json v = (*lookup_)(ref);
    Num n;
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        fail(ref + " is too large");
      n.integer = v.get<std::int64_t>();
    } else if (v.is_number_float()) {
      n.exact = false;
      n.real = v.get<double>();
    } else {
      fail(ref + " is " + v.dump() + ", not a number");
    }
    return n;
  }

  Num apply(char op, const Num& a, const Num& b) {
    if (!lookup_) return Num{};  // only collecting references
    Num r;
    if (a.exact && b.exact) {
      switch (op) {
        case '+': r.integer = a.integer + b.integer; return r;
        case '-': r.integer = a.integer - b.integer; return r;
        case '*': r.integer = a.integer * b.integer; return r;
        default:
          if (b.integer.value() == 0) fail("division by zero");
          if ((a.integer % b.integer).value() != 0)
            fail(std::to_string(a.integer.value()) + " / " + std::to_string(b.integer.value()) +
                 " leaves a remainder; integers must divide exactly");
          r.integer = a.integer / b.integer;
          return r;
      }
    }
    r.exact = false;
    double x = a.value(), y = b.value();
    switch (op) {
      case '+': r.real = x + y; break;
      case '-': r.real = x - y; break;
      case '*': r.real = x * y; break;
      default:
        if (y == 0) fail("division by zero");
        r.real = x / y;
    }
    if (!std::isfinite(r.real)) fail("the result is not finite");
    return r;
  }

 public:
  std::vector<std::string> refs_;

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const std::function<Json(const std::string&)>* lookup_;
};

}  // namespace

bool is_formula(const Json& value) {
  return value.is_string() && value.get_ref<const std::string&>().starts_with("=");
}

std::vector<std::string> formula_references(std::string_view formula) {
  Parser p(body(formula), nullptr);
  p.parse();
  return p.refs_;
}

Json evaluate_formula(std::string_view formula, const std::function<Json(const std::string&)>& lookup) {
  Parser p(body(formula), &lookup);
  Num n = p.parse();
  if (n.exact) return Json(n.integer.value());
  return Json(n.real);
}

}  // namespace bb::calc
