// Computed numbers and bound literals.
#include "filters/calc_numbers.hpp"
#include "text/unicode.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace bb::filters {

using doc::Kind;
using doc::Node;

namespace {
std::string trim(std::string_view s) {
  return std::string(text::trim(s));
}
}  // namespace

bool split_placeholder(std::string_view inner, std::string& expr, std::string& format) {
  std::string s = trim(inner);
  if (s.starts_with("calc ")) s = trim(std::string_view(s).substr(5));
  auto bar = s.find('|');
  expr = trim(std::string_view(s).substr(0, bar));
  format = bar == std::string::npos ? "" : trim(std::string_view(s).substr(bar + 1));
  if (expr.empty()) return false;
  bool inline_call =
      expr.find('(') != std::string::npos;  // forward(model=qwen3-8b, tokens=8192).matrix_flops
  return inline_call || expr.find_first_of(" \t") == std::string::npos;
}

namespace {

// `tol=` as typed: a plain finite number >= 0 (no inf, nan, negative or out-of-range values), exact.
std::optional<text::Decimal> parse_tolerance(const std::string& text) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v) || v < 0) return std::nullopt;
  return text::Decimal::parse(text).value_or(text::Decimal::of(v));
}

class CalcResolver {
 public:
  CalcResolver(book::Chapter& c, const book::Edition& e, const Evaluator* ev, std::vector<Binding>& b,
               Diagnostics& d)
      : c_(c), e_(e), edition_(e.id), chapter_(c.key), evaluate_(ev), bindings_(b), diags_(d) {}

  void run() { walk(c_.root); }

 private:
  void walk(Node& n) {
    if (auto* x = n.rare_if())
      for (auto& c : x->caption) walk(c);
    for (auto& c : n.children) walk(c);
    if (n.kind == Kind::CalcNumber && n.children.empty()) placeholder(n);  // resolved ones are done
    if (n.kind == Kind::Span && n.attr("calc")) literal(n);
  }

  std::optional<Number> eval(const std::string& expr, const SourceLoc& loc) {
    if (!evaluate_) {
      diags_.error(loc, "computed number `" + expr + "`, but this book has no calculations/ folder");
      return std::nullopt;
    }
    try {
      return (*evaluate_)(expr);
    } catch (const std::exception& ex) {
      diags_.error(loc, "cannot compute `" + expr + "`: " + ex.what());
      return std::nullopt;
    }
  }

  void placeholder(Node& n) {
    Binding b{edition_, chapter_, n.loc, "", false, "", "", "", true};
    std::string format;
    if (!split_placeholder(n.text, b.expr, format)) {
      diags_.error(
          n.loc, "malformed computed number `{{" + n.text + "}}`: write `{{calc scenario.field | format}}`");
      return;
    }
    std::string err;
    auto f = parse_format(format, err);
    if (!f) {
      diags_.error(n.loc, err);
      return;
    }
    auto v = eval(b.expr, n.loc);
    if (!v) return;
    b.shown = b.recomputed = format_number(*v, *f, e_.numbers, e_.lang);
    Node text(Kind::Text, n.loc);
    text.text = b.shown;
    n.children.clear();
    n.children.push_back(std::move(text));
    // The placeholder is split here, once: from now on its text is the expression alone (the format
    // is spent on the value shown). No attr `expr`: a large book has tens of thousands of
    // placeholders, which would each need the attributes part for it.
    n.text = b.expr;
    bindings_.push_back(std::move(b));
  }

  void literal(Node& n) {
    Binding b{edition_, chapter_, n.loc, *n.attr("calc"), true, doc::plain_text(n.children), "", "", true};
    auto lit = parse_literal(b.shown, e_.numbers);
    if (!lit) {
      diags_.error(n.loc,
                   "cannot read `" + b.shown + "` as a number with an optional unit (edition " + e_.id + ")");
      return;
    }
    if (const std::string* u = n.attr("unit")) {
      auto unit = find_unit(*u);
      if (!unit) {
        diags_.error(n.loc, "unknown unit `" + *u + "`");
        return;
      }
      if (lit->unit && lit->unit->name != unit->name) {
        diags_.error(n.loc, "the literal says " + lit->unit->name + " but unit=" + *u);
        return;
      }
      lit->unit = unit;
    }
    auto v = eval(b.expr, n.loc);
    if (!v) return;
    // Exact decimals throughout (text/decimal.hpp): the value in the literal's unit, the literal as
    // typed, and half a unit of its last printed digit: "8,190,735,360" must be exact, "133.59 TFLOPs"
    // within 0.005 TFLOPs. A value exactly half-way is within, whichever way the author rounded.
    if (!v->is_integer && !std::isfinite(v->real)) {
      diags_.error(n.loc, "`" + b.expr + "` is not a finite number");
      return;
    }
    const text::Decimal actual = exact_value(*v, lit->unit);
    text::Decimal tolerance = text::Decimal::of(std::int64_t{5}).scaled(0, -lit->decimals - 1);
    if (const std::string* t = n.attr("tol")) {
      auto tol = parse_tolerance(*t);
      if (!tol) {
        diags_.error(n.loc, "tol=`" + *t + "` must be a finite number >= 0, in the literal's unit");
        return;
      }
      tolerance = *tol;
    }
    const auto typed = text::Decimal::parse(lit->digits);
    b.recomputed = actual.fixed(lit->decimals + 3) + (lit->unit ? " " + lit->unit->name : "");
    char buf[48];  // the tolerance as it has always been shown: "±0.005", "±5e-05"
    std::snprintf(buf, sizeof buf, "±%.3Lg", std::strtold(tolerance.plain().c_str(), nullptr));
    b.tolerance = buf;
    b.ok = typed && compare((actual - *typed).abs(), tolerance) <= 0;
    if (!b.ok) {
      diags_.error(n.loc, "number `" + b.shown + "` does not match `" + b.expr + "`: recomputed " +
                              b.recomputed + " (tolerance " + b.tolerance + ")");
    }
    n.set_attr("expr", b.expr);
    bindings_.push_back(std::move(b));
  }

  book::Chapter& c_;
  const book::Edition& e_;
  text::Interned edition_;
  text::Interned chapter_;
  const Evaluator* evaluate_;
  std::vector<Binding>& bindings_;
  Diagnostics& diags_;
};

}  // namespace

std::size_t count_computed_numbers(const doc::Node& root) {
  std::size_t n = 0;
  doc::walk(root, [&](const Node& x) {
    if (x.kind == Kind::CalcNumber || (x.kind == Kind::Span && x.attr("calc"))) ++n;
  });
  return n;
}

std::string computed_expression(const doc::Node& n) {
  // Resolved placeholders, and only they, have the value as their children, and the expression alone
  // as their text.
  if (n.kind == Kind::CalcNumber && !n.children.empty()) return n.text;
  const std::string* e = n.attr("expr");
  return e ? *e : std::string();
}

void resolve_calc_numbers(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                          std::vector<Binding>& bindings, Diagnostics& diags) {
  CalcResolver(chapter, edition, evaluate, bindings, diags).run();
}

}  // namespace bb::filters
