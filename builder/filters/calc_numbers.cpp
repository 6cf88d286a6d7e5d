// Computed numbers and bound literals.
#include "filters/calc_numbers.hpp"
#include "text/unicode.hpp"

#include <bit>
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

bool same_number(const Number& a, const Number& b) {
  return a.is_integer == b.is_integer &&
         (a.is_integer ? a.integer == b.integer
                       : std::bit_cast<std::uint64_t>(a.real) == std::bit_cast<std::uint64_t>(b.real));
}

PlaceholderMemo::Read read_placeholder(std::string_view text) {
  PlaceholderMemo::Read read;
  std::string format;
  read.split = split_placeholder(text, read.expr, format);
  if (read.split) read.format = parse_format(format, read.error);
  return read;
}

class CalcResolver {
 public:
  CalcResolver(book::Chapter& c, const book::Edition& e, const Evaluator* ev, std::vector<Binding>& b,
               Diagnostics& d, PlaceholderMemo* memo)
      : c_(c),
        e_(e),
        edition_(e.id),
        chapter_(c.key),
        evaluate_(ev),
        bindings_(b),
        diags_(d),
        memo_(memo ? *memo : own_) {}

  void run() {
    // The computed numbers first, in the order they are resolved: then room for all their bindings is
    // made once (grown by doubling, a chapter's vector held up to twice its bindings when merged).
    std::vector<Node*> found;
    gather(c_.root, found);
    bindings_.reserve(bindings_.size() + found.size());
    for (Node* n : found) n->kind == Kind::CalcNumber ? placeholder(*n) : literal(*n);
  }

 private:
  // Resolving one changes only its own node (a placeholder gets its value as children, where it had
  // none): the pointers to the others stay valid.
  void gather(Node& n, std::vector<Node*>& found) {
    if (auto* x = n.rare_if())
      for (auto& c : x->caption) gather(c, found);
    for (auto& c : n.children) gather(c, found);
    if (n.kind == Kind::CalcNumber && n.children.empty()) found.push_back(&n);  // resolved ones are done
    if (n.kind == Kind::Span && n.attr("calc")) found.push_back(&n);
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
    const PlaceholderMemo::Read* read = memo_.find(n.text);
    std::optional<Number> v;
    if (!read) {
      // First seen in the edition: read, and evaluated and shown if it can be, then kept as it is.
      PlaceholderMemo::Read fresh = read_placeholder(n.text);
      if (fresh.format) {
        v = eval(fresh.expr, n.loc);
        if (!v) {
          memo_.keep(n.text, std::move(fresh));
          return;
        }
        fresh.value = v;
        fresh.shown = format_number(*v, *fresh.format, e_.numbers, e_.lang);
      }
      read = &memo_.keep(n.text, std::move(fresh));
    }
    if (!read->split) {
      diags_.error(
          n.loc, "malformed computed number `{{" + n.text + "}}`: write `{{calc scenario.field | format}}`");
      return;
    }
    if (!read->format) {
      diags_.error(n.loc, read->error);
      return;
    }
    if (!v) v = eval(read->expr, n.loc);
    if (!v) return;
    Binding b{edition_, chapter_, n.loc, read->expr, false, "", "", "", true};
    b.shown = b.recomputed = read->value && same_number(*v, *read->value)
                                 ? read->shown
                                 : format_number(*v, *read->format, e_.numbers, e_.lang);
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
  PlaceholderMemo own_;  // the chapter's own, when the caller shares none
  PlaceholderMemo& memo_;
};

}  // namespace

const PlaceholderMemo::Read* PlaceholderMemo::find(std::string_view text) const {
  std::lock_guard lock(mutex_);
  auto it = reads_.find(text);
  return it == reads_.end() ? nullptr : &it->second;
}

const PlaceholderMemo::Read& PlaceholderMemo::keep(std::string_view text, Read read) {
  std::lock_guard lock(mutex_);
  return reads_.try_emplace(std::string(text), std::move(read)).first->second;
}

std::string computed_expression(const doc::Node& n) {
  // Resolved placeholders, and only they, have the value as their children, and the expression alone
  // as their text.
  if (n.kind == Kind::CalcNumber && !n.children.empty()) return n.text;
  const std::string* e = n.attr("expr");
  return e ? *e : std::string();
}

void resolve_calc_numbers(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                          std::vector<Binding>& bindings, Diagnostics& diags, PlaceholderMemo* memo) {
  CalcResolver(chapter, edition, evaluate, bindings, diags, memo).run();
}

}  // namespace bb::filters
