// Python-compatible number formatting and exact arithmetic helpers (see pynum.hpp).
#include "calc/pynum.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace bb::calc {
namespace {

int bit_length(unsigned __int128 v) {
  int n = 0;
  while (v != 0) {
    v >>= 1;
    ++n;
  }
  return n;
}

__int128 gcd128(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

__int128 mul128(__int128 a, __int128 b) {
  __int128 r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error("rational arithmetic overflow");
  return r;
}

Rational reduce(__int128 num, __int128 den) {
  if (den == 0) throw Error("rational division by zero");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  __int128 g = gcd128(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  return {num, den};
}

}  // namespace

std::string py_repr(double v) {
  if (!std::isfinite(v)) throw Error("cannot write a non-finite number");
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  // Shortest round-trip digits in scientific form: [-]d[.ddd]e±XX.
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  auto epos = sci.find('e');
  int exponent = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : sci.substr(0, epos))
    if (c != '.') digits += c;
  std::string out = negative ? "-" : "";
  int nd = static_cast<int>(digits.size());
  if (exponent >= -4 && exponent < 16) {
    int point = exponent + 1;  // digits before the decimal point
    if (point <= 0) {
      out += "0." + std::string(-point, '0') + digits;
    } else if (point >= nd) {
      out += digits + std::string(point - nd, '0') + ".0";
    } else {
      out += digits.substr(0, point) + "." + digits.substr(point);
    }
  } else {
    out += digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    out += e;
  }
  return out;
}

double true_div(__int128 num, __int128 den) {
  if (den == 0) throw Error("division by zero");
  bool negative = (num < 0) != (den < 0);
  unsigned __int128 n = num < 0 ? -static_cast<unsigned __int128>(num) : num;
  unsigned __int128 d = den < 0 ? -static_cast<unsigned __int128>(den) : den;
  if (n == 0) return negative ? -0.0 : 0.0;
  constexpr unsigned __int128 exact = static_cast<unsigned __int128>(1) << 53;
  if (n <= exact && d <= exact) {
    double r = static_cast<double>(n) / static_cast<double>(d);  // both exact: one rounding only
    return negative ? -r : r;
  }
  // Scale so the quotient has 55..56 significant bits, then round half to even with a sticky bit.
  int shift = 55 - (bit_length(n) - bit_length(d));
  int headroom = 127 - bit_length(n);
  unsigned __int128 nn = n, dd = d;
  if (shift >= 0) {
    if (shift > headroom) throw Error("division result out of range");
    nn <<= shift;
  } else {
    if (-shift > 127 - bit_length(d)) throw Error("division result out of range");
    dd <<= -shift;
  }
  unsigned __int128 q = nn / dd;
  bool sticky = (nn % dd) != 0;
  int drop = bit_length(q) - 53;
  std::uint64_t mant = static_cast<std::uint64_t>(q >> drop);
  unsigned __int128 rest = q & ((static_cast<unsigned __int128>(1) << drop) - 1);
  unsigned __int128 half = static_cast<unsigned __int128>(1) << (drop - 1);
  if (rest > half || (rest == half && (sticky || (mant & 1)))) ++mant;
  double r = std::ldexp(static_cast<double>(mant), drop - shift);
  return negative ? -r : r;
}

Rational Rational::of_double(double v) {
  if (!std::isfinite(v)) throw Error("non-finite number in exact arithmetic");
  int exp = 0;
  double frac = std::frexp(v, &exp);  // v = frac * 2^exp, 0.5 <= |frac| < 1
  auto mant = static_cast<__int128>(std::ldexp(frac, 53));
  exp -= 53;
  if (exp >= 0) {
    if (exp > 70) throw Error("number too large for exact arithmetic");
    return reduce(mul128(mant, static_cast<__int128>(1) << exp), 1);
  }
  if (-exp > 120) throw Error("number too small for exact arithmetic");
  return reduce(mant, static_cast<__int128>(1) << -exp);
}

Rational Rational::ratio(__int128 n, __int128 d) {
  return reduce(n, d);
}

std::string int128_string(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  for (; u != 0; u /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  return negative ? "-" + digits : digits;
}

std::string Rational::to_string() const {
  return den == 1 ? int128_string(num) : int128_string(num) + "/" + int128_string(den);
}

Rational operator+(Rational a, Rational b) {
  __int128 sum;
  if (__builtin_add_overflow(mul128(a.num, b.den), mul128(b.num, a.den), &sum))
    throw Error("rational arithmetic overflow");
  return reduce(sum, mul128(a.den, b.den));
}

Rational operator-(Rational a, Rational b) {
  return a + Rational{-b.num, b.den};
}

Rational operator*(Rational a, Rational b) {
  __int128 g1 = gcd128(a.num, b.den), g2 = gcd128(b.num, a.den);
  if (g1 == 0) g1 = 1;
  if (g2 == 0) g2 = 1;
  return reduce(mul128(a.num / g1, b.num / g2), mul128(a.den / g2, b.den / g1));
}

Rational operator/(Rational a, Rational b) {
  if (b.num == 0) throw Error("rational division by zero");
  return a * reduce(b.den, b.num);
}

namespace {
// n1/d1 < n2/d2 for n >= 0, d > 0, by continued fractions: no product is formed, so nothing overflows.
bool less_non_negative(__int128 n1, __int128 d1, __int128 n2, __int128 d2) {
  for (;;) {
    const __int128 q1 = n1 / d1, q2 = n2 / d2;
    if (q1 != q2) return q1 < q2;
    const __int128 r1 = n1 % d1, r2 = n2 % d2;
    if (r1 == 0 || r2 == 0) return r1 == 0 && r2 != 0;
    // r1/d1 < r2/d2  <=>  d2/r2 < d1/r1
    const __int128 next_n1 = d2, next_d1 = r2, next_n2 = d1, next_d2 = r1;
    n1 = next_n1;
    d1 = next_d1;
    n2 = next_n2;
    d2 = next_d2;
  }
}
}  // namespace

Rational Rational::of_decimal(std::string_view text) {
  const std::string s(text);
  auto bad = [&]() -> Error { return Error("not a decimal number: '" + s + "'"); };
  std::size_t i = 0;
  const bool negative = i < s.size() && (s[i] == '-' || s[i] == '+') && s[i++] == '-';
  __int128 num = 0, den = 1;
  bool digits = false, point = false;
  for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] == '.' && !point)); ++i) {
    if (s[i] == '.') {
      point = true;
      continue;
    }
    digits = true;
    num = mul128(num, 10) + (s[i] - '0');
    if (point) den = mul128(den, 10);
  }
  if (!digits) throw bad();
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    const bool neg_exp = i < s.size() && (s[i] == '-' || s[i] == '+') && s[i++] == '-';
    int exp = 0;
    if (i >= s.size()) throw bad();
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      exp = exp * 10 + (s[i] - '0');
      if (exp > 38) throw Error("rational arithmetic overflow");
    }
    for (int k = 0; k < exp; ++k) (neg_exp ? den : num) = mul128(neg_exp ? den : num, 10);
  }
  if (i != s.size()) throw bad();
  return reduce(negative ? -num : num, den);
}

std::string to_string(Rational a) {
  return a.to_string();
}

bool operator<(Rational a, Rational b) {
  if ((a.num < 0) != (b.num < 0)) return a.num < 0;
  if (a.num < 0) return less_non_negative(-b.num, b.den, -a.num, a.den);
  return less_non_negative(a.num, a.den, b.num, b.den);
}

Int ceil(Rational a) {
  __int128 q = a.num / a.den;
  if (a.num % a.den != 0 && a.num > 0) ++q;
  if (q > std::numeric_limits<std::int64_t>::max() || q < std::numeric_limits<std::int64_t>::min())
    throw Error("integer overflow in ceiling");
  return static_cast<std::int64_t>(q);
}

double py_sum(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = values[0], c = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double x = values[i], t = sum + x;
    c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  return c != 0 && std::isfinite(c) ? sum + c : sum;
}

Int parse_exact_int(std::string_view text, std::string_view what) {
  std::string name(what);
  std::string s(text);
  auto bad = [&]() -> Error { return Error(name + " must be an integer, got '" + s + "'"); };
  if (s.empty()) throw bad();
  size_t i = 0;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  std::string digits;
  int frac_digits = 0;
  bool seen_point = false, any = false;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.' && !seen_point) {
      seen_point = true;
    } else if (s[i] >= '0' && s[i] <= '9') {
      digits += s[i];
      any = true;
      if (seen_point) ++frac_digits;
    } else if (s[i] == '_') {
      // Python accepts 8_192 in int literals; so do we.
    } else {
      throw bad();
    }
  }
  if (!any) throw bad();
  long exponent = 0;
  if (i < s.size()) {
    std::string e = s.substr(i + 1);
    if (e.empty()) throw bad();
    auto r = std::from_chars(e.data() + (e[0] == '+' ? 1 : 0), e.data() + e.size(), exponent);
    if (r.ec != std::errc() || r.ptr != e.data() + e.size()) throw bad();
  }
  exponent -= frac_digits;
  // Strip trailing zeros that a negative exponent consumes; anything left over is a fraction.
  while (exponent < 0 && !digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (exponent < 0) throw Error(name + " must be a whole number, got '" + s + "'");
  if (exponent > 30) throw Error(name + " is too large: '" + s + "'");
  digits += std::string(static_cast<size_t>(exponent), '0');
  Int v = 0;
  for (char c : digits) {
    try {
      v = v * 10 + (c - '0');
    } catch (const Error&) {
      throw Error(name + " is too large for a 64-bit integer: '" + s + "'");
    }
  }
  return negative ? Int(0) - v : v;
}

double parse_finite_double(std::string_view text, std::string_view what) {
  std::string s(text);
  double v = 0;
  auto r = std::from_chars(s.data() + (s.size() > 0 && s[0] == '+' ? 1 : 0), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
    throw Error(std::string(what) + " must be a number, got '" + s + "'");
  if (!std::isfinite(v)) throw Error(std::string(what) + " must be finite, got '" + s + "'");
  return v;
}

}  // namespace bb::calc
