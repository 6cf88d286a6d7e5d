// Exact decimal numbers, for every number the book prints or checks: a computed value is taken at its
// shortest round-trip decimal (what the double means, std::to_chars), scaled to a unit by powers of two
// and ten as digit operations, and rounded half away from zero on the digits. A binary multiply would
// turn 3.35e12 B/s into 3.3499999… TB/s and print 3.3 at one decimal; here it is 3.35, printed 3.4.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bb::text {

// ±digits × 10^exponent, normalised: no leading or trailing zeros in `digits`; zero has none and is
// never negative.
class Decimal {
 public:
  Decimal() = default;
  // The shortest decimal that reads back as `v` (finite values only: the caller prints inf/nan).
  static Decimal of(double v);
  static Decimal of(std::int64_t v);
  // `[-]digits[.digits][e[±]digits]` exactly, as typed in a book (also `.5` and `5.`); exponents beyond
  // ±1000 are refused, so that hostile input cannot ask for a string of a billion zeros.
  static std::optional<Decimal> parse(std::string_view text);

  // × 2^pow2 × 10^pow10, exactly (a division by 2^k is a multiplication by 5^k and a shift).
  [[nodiscard]] Decimal scaled(int pow2, int pow10) const;
  // Rounded to a multiple of 10^-decimals (decimals may be negative: -2 rounds to hundreds), half
  // away from zero.
  [[nodiscard]] Decimal rounded(int decimals) const;
  // Rounded as above, then written with exactly max(decimals, 0) decimals: "-3.40", "1200", "0".
  [[nodiscard]] std::string fixed(int decimals) const;
  // Rounded to `significant` digits (>= 1), with the decimals those digits need: 295.34 at 3 → "295",
  // 123456 at 2 → "120000", 0.0012345 at 3 → "0.00123", 1.5 at 3 → "1.50", 9.96 at 2 → "10".
  [[nodiscard]] std::string significant(int significant) const;
  // Every digit, no exponent: "0.0001", "-1200", "3.35".
  [[nodiscard]] std::string plain() const;

  [[nodiscard]] bool is_zero() const { return digits_.empty(); }
  [[nodiscard]] bool negative() const { return negative_; }
  // The power of ten of the leading digit (3.35 → 0, 1200 → 3, 0.05 → -2); 0 for zero.
  [[nodiscard]] int magnitude() const;
  [[nodiscard]] Decimal abs() const;
  [[nodiscard]] Decimal negated() const;

  friend Decimal operator+(const Decimal& a, const Decimal& b);
  friend Decimal operator-(const Decimal& a, const Decimal& b) { return a + b.negated(); }
  // -1, 0 or 1.
  friend int compare(const Decimal& a, const Decimal& b);

 private:
  Decimal(bool negative, std::string digits, int exponent);
  void normalise();

  bool negative_ = false;
  std::string digits_;  // most significant first
  int exponent_ = 0;
};

}  // namespace bb::text
