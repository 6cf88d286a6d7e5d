// Fractions in result documents (see fraction.hpp).
#include "calc/fraction.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "calc/error.hpp"

namespace bb::calc {
namespace {

// Non-negative decimal digits with an optional fraction and exponent: "12", "1.5", "2e3", "1.25E-2".
Rational parse_decimal(std::string_view s, const std::string& what) {
  auto bad = [&] {
    return Error(what + " must be a number or a fraction like 3/4, got '" + std::string(s) + "'");
  };
  __int128 digits = 0;
  int scale = 0;  // value = digits * 10^-scale
  bool any = false, point = false;
  size_t i = 0;
  constexpr __int128 limit = static_cast<__int128>(1) << 120;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.' && !point) {
      point = true;
    } else if (s[i] >= '0' && s[i] <= '9') {
      if (digits > limit / 10) throw bad();
      digits = digits * 10 + (s[i] - '0');
      any = true;
      if (point) ++scale;
    } else {
      throw bad();
    }
  }
  if (!any) throw bad();
  if (i < s.size()) {
    std::string_view e = s.substr(i + 1);
    bool negative = !e.empty() && e[0] == '-';
    if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
    if (e.empty() || e.size() > 3) throw bad();
    int exp = 0;
    for (char c : e) {
      if (c < '0' || c > '9') throw bad();
      exp = exp * 10 + (c - '0');
    }
    scale += negative ? exp : -exp;
  }
  __int128 ten = 1;
  for (int k = 0; k < std::abs(scale); ++k) {
    if (ten > limit / 10) throw bad();
    ten *= 10;
  }
  return scale >= 0 ? Rational::ratio(digits, ten) : Rational::ratio(digits, 1) * Rational::ratio(ten, 1);
}

__int128 whole(const Json& v, const std::string& what) {
  if (v.is_number_unsigned()) return static_cast<__int128>(v.get<std::uint64_t>());
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d)) {
      Rational r = Rational::of_double(d);
      if (r.den == 1) return r.num;
    }
  }
  throw Error(what + " must be a whole number");
}

}  // namespace

Rational parse_fraction(std::string_view text, std::string_view what) {
  const std::string name(what);
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  Rational r;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    Rational num = parse_decimal(s.substr(0, slash), name), den = parse_decimal(s.substr(slash + 1), name);
    if (num.den != 1 || den.den != 1) throw Error(name + ": a fraction's parts must be integers");
    if (den.num == 0) throw Error(name + ": division by zero");
    r = num / den;
  } else {
    r = parse_decimal(s, name);
  }
  return negative ? Rational::ratio(-r.num, r.den) : r;
}

Json integer_json(__int128 v) {
  if (v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max())
    return static_cast<std::int64_t>(v);
  if (v > 0 && v <= static_cast<__int128>(std::numeric_limits<std::uint64_t>::max()))
    return static_cast<std::uint64_t>(v);
  return Rational::ratio(v, 1).to_double();
}

Json exact_json(Rational r) {
  return Json{{"numerator", integer_json(r.num)}, {"denominator", integer_json(r.den)}};
}

Rational read_exact(const Json& record, std::string_view what) {
  const std::string name(what);
  if (!record.is_object() || !record.contains("numerator") || !record.contains("denominator"))
    throw Error(name + " must be {\"numerator\": n, \"denominator\": d}");
  __int128 den = whole(record["denominator"], name + ".denominator");
  if (den == 0) throw Error(name + ": denominator is zero");
  return Rational::ratio(whole(record["numerator"], name + ".numerator"), den);
}

}  // namespace bb::calc
