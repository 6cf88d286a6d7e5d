// Exact decimal numbers (decimal.hpp): digit strings and a power of ten; nothing here rounds in binary.
#include "text/decimal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>

namespace bb::text {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// `digits` × m, for m small enough that a digit times m plus the carry fits in 64 bits.
void multiply_small(std::string& digits, std::uint64_t m) {
  std::uint64_t carry = 0;
  for (std::size_t i = digits.size(); i-- > 0;) {
    const std::uint64_t x = static_cast<std::uint64_t>(digits[i] - '0') * m + carry;
    digits[i] = static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  std::string head;
  for (; carry > 0; carry /= 10) head.insert(head.begin(), static_cast<char>('0' + carry % 10));
  digits.insert(0, head);
}

// `digits` + 1.
void increment(std::string& digits) {
  for (std::size_t i = digits.size(); i-- > 0;) {
    if (digits[i] != '9') {
      ++digits[i];
      return;
    }
    digits[i] = '0';
  }
  digits.insert(digits.begin(), '1');
}

// Sum and difference of two digit strings of the same length (leading zeros allowed); for the
// difference a >= b.
std::string add_aligned(const std::string& a, const std::string& b) {
  std::string out(a.size(), '0');
  int carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const int x = (a[i] - '0') + (b[i] - '0') + carry;
    out[i] = static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  return carry ? "1" + out : out;
}

std::string subtract_aligned(const std::string& a, const std::string& b) {
  std::string out(a.size(), '0');
  int borrow = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    int x = (a[i] - '0') - (b[i] - '0') - borrow;
    borrow = x < 0;
    out[i] = static_cast<char>('0' + (x + 10) % 10);
  }
  return out;
}

}  // namespace

Decimal::Decimal(bool negative, std::string digits, int exponent)
    : negative_(negative), digits_(std::move(digits)), exponent_(exponent) {
  normalise();
}

void Decimal::normalise() {
  const std::size_t lead = digits_.find_first_not_of('0');
  if (lead == std::string::npos) {
    *this = Decimal();
    return;
  }
  digits_.erase(0, lead);
  const std::size_t last = digits_.find_last_not_of('0');
  exponent_ += static_cast<int>(digits_.size() - 1 - last);
  digits_.erase(last + 1);
}

Decimal Decimal::of(double v) {
  char buf[64];
  // Shortest round trip, always with an exponent: "3.35e+12", "-1.2245760000000001e-05".
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  if (ec != std::errc()) return Decimal();
  return parse(std::string_view(buf, static_cast<std::size_t>(end - buf))).value_or(Decimal());
}

Decimal Decimal::of(std::int64_t v) {
  return *parse(std::to_string(v));
}

std::optional<Decimal> Decimal::parse(std::string_view t) {
  std::size_t i = 0;
  const bool negative = i < t.size() && t[i] == '-';
  if (negative) ++i;
  std::string digits;
  int frac = 0;
  for (; i < t.size() && is_digit(t[i]); ++i) digits += t[i];
  if (i < t.size() && t[i] == '.')
    for (++i; i < t.size() && is_digit(t[i]); ++i, ++frac) digits += t[i];
  if (digits.empty() || digits.size() > 100000) return std::nullopt;
  long exponent = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    const bool down = i < t.size() && t[i] == '-';
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    if (i == t.size()) return std::nullopt;
    for (; i < t.size() && is_digit(t[i]); ++i) {
      exponent = exponent * 10 + (t[i] - '0');
      if (exponent > 1000) return std::nullopt;
    }
    if (down) exponent = -exponent;
  }
  if (i != t.size()) return std::nullopt;
  return Decimal(negative, std::move(digits), static_cast<int>(exponent) - frac);
}

Decimal Decimal::scaled(int pow2, int pow10) const {
  if (is_zero()) return *this;
  std::string d = digits_;
  int e = exponent_ + pow10;
  // 2^k and 5^k in steps that keep multiply_small's products within 64 bits.
  for (int k = std::abs(pow2); k > 0;) {
    const int step = std::min(k, 13);
    std::uint64_t m = 1;
    for (int j = 0; j < step; ++j) m *= pow2 > 0 ? 2 : 5;
    multiply_small(d, m);
    k -= step;
  }
  if (pow2 < 0) e += pow2;  // ÷ 2^k = × 5^k ÷ 10^k
  return Decimal(negative_, std::move(d), e);
}

Decimal Decimal::rounded(int decimals) const {
  const long drop = -static_cast<long>(decimals) - exponent_;  // digits below 10^-decimals
  if (is_zero() || drop <= 0) return *this;
  const long size = static_cast<long>(digits_.size());
  if (drop > size) return Decimal();  // below a tenth of the unit of rounding: less than half of it
  std::string kept = digits_.substr(0, static_cast<std::size_t>(size - drop));
  // Half away from zero: the sign is apart, so rounding the digits up moves away from zero.
  if (digits_[static_cast<std::size_t>(size - drop)] >= '5') increment(kept);
  return Decimal(negative_, std::move(kept), -decimals);
}

std::string Decimal::fixed(int decimals) const {
  const Decimal r = rounded(decimals);
  if (r.is_zero()) return decimals > 0 ? "0." + std::string(static_cast<std::size_t>(decimals), '0') : "0";
  const int shown = std::max(decimals, 0);
  // The rounded value × 10^shown is an integer: the digits and the zeros after them.
  std::string whole = r.digits_ + std::string(static_cast<std::size_t>(r.exponent_ + shown), '0');
  if (whole.size() <= static_cast<std::size_t>(shown))
    whole.insert(0, static_cast<std::size_t>(shown) + 1 - whole.size(), '0');
  if (shown > 0) whole.insert(whole.size() - static_cast<std::size_t>(shown), 1, '.');
  return (r.negative_ ? "-" : "") + whole;
}

std::string Decimal::significant(int significant) const {
  if (is_zero()) return "0";
  int decimals = significant - 1 - magnitude();
  Decimal r = rounded(decimals);
  // 9.96 to two digits is 10: one decimal fewer keeps two significant digits (exact: the rounded
  // value ends in a zero there).
  if (r.magnitude() > magnitude()) --decimals;
  return r.fixed(std::max(decimals, 0));
}

std::string Decimal::plain() const {
  return fixed(exponent_ < 0 ? -exponent_ : 0);
}

int Decimal::magnitude() const {
  return is_zero() ? 0 : exponent_ + static_cast<int>(digits_.size()) - 1;
}

Decimal Decimal::abs() const {
  Decimal r = *this;
  r.negative_ = false;
  return r;
}

Decimal Decimal::negated() const {
  Decimal r = *this;
  r.negative_ = !r.is_zero() && !negative_;
  return r;
}

Decimal operator+(const Decimal& a, const Decimal& b) {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  const int e = std::min(a.exponent_, b.exponent_);
  std::string x = a.digits_ + std::string(static_cast<std::size_t>(a.exponent_ - e), '0');
  std::string y = b.digits_ + std::string(static_cast<std::size_t>(b.exponent_ - e), '0');
  const std::size_t width = std::max(x.size(), y.size());
  x.insert(0, width - x.size(), '0');
  y.insert(0, width - y.size(), '0');
  if (a.negative_ == b.negative_) return Decimal(a.negative_, add_aligned(x, y), e);
  // Opposite signs: the larger magnitude minus the smaller, with the larger one's sign.
  if (x >= y) return Decimal(a.negative_, subtract_aligned(x, y), e);
  return Decimal(b.negative_, subtract_aligned(y, x), e);
}

int compare(const Decimal& a, const Decimal& b) {
  const Decimal d = a - b;
  return d.is_zero() ? 0 : d.negative() ? -1 : 1;
}

}  // namespace bb::text
