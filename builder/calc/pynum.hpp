// Numbers as the reference tool (Python) produces them: repr of floats, true division of integers,
// exact rationals, and exact parsing of integers written as "7e10".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "calc/checked_int.hpp"

namespace bb::calc {

// Python's repr(float): the shortest string that round-trips, in fixed notation when the decimal
// exponent is in [-4, 16), otherwise d.ddde±XX. Non-finite values are an error (JSON cannot hold them).
std::string py_repr(double v);

// The correctly rounded double nearest to num/den (den != 0), as Python's int / int gives.
double true_div(__int128 num, __int128 den);
inline double true_div(Int a, Int b) {
  return true_div(__int128{a.value()}, __int128{b.value()});
}

// An exact rational (non-negative unless a subtraction makes it negative) with 128-bit parts; every operation
// reduces and checks for overflow. Used where the reference tool computes with fractions.Fraction.
struct Rational {
  __int128 num = 0;
  __int128 den = 1;
  static Rational of(Int v) { return {v.value(), 1}; }
  static Rational of_double(double v);            // exact value of a finite double
  static Rational ratio(__int128 n, __int128 d);  // n/d reduced, like Fraction(n, d); d == 0 is an error
  double to_double() const { return true_div(num, den); }
  std::string to_string() const;  // Python's str(Fraction): "3/4", or "5" when whole
  // Fraction(str(x)): the exact value of a decimal ("989.4" is 4947/5, "1e-05", "-2.5"); Error if not one.
  static Rational of_decimal(std::string_view text);
};
Rational operator+(Rational a, Rational b);
Rational operator-(Rational a, Rational b);
// str(Fraction): "p/q", or "p" when the denominator is 1.
std::string to_string(Rational a);
Rational operator*(Rational a, Rational b);
Rational operator/(Rational a, Rational b);
Rational operator-(Rational a, Rational b);
bool operator<(Rational a, Rational b);
inline bool operator==(Rational a, Rational b) {
  return a.num == b.num && a.den == b.den;  // both are always reduced
}
Int ceil(Rational a);
// A 128-bit integer in decimal.
std::string int128_string(__int128 v);

// Python's sum() of floats (3.12 and later): Neumaier's compensated summation, the compensation added
// once at the end (CPython Python/bltinmodule.c, builtin_sum_impl). An empty list sums to 0.
double py_sum(const std::vector<double>& values);

// Parses an exact integer: "8192", "7e10", "1.5e3", "8e10". Anything that is not an integer
// (1.5, 1e-3), not finite, or out of 64-bit range is an error naming `what`.
Int parse_exact_int(std::string_view text, std::string_view what);
// Parses a finite double ("50e9", "0.8"); NaN/Inf and junk are errors naming `what`.
double parse_finite_double(std::string_view text, std::string_view what);

}  // namespace bb::calc
