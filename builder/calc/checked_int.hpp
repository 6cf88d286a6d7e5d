// Exact integer arithmetic for the resource model: every operation is checked, overflow is an error.
#pragma once

#include <cstdint>
#include <string>

#include "calc/error.hpp"

namespace bb::calc {

// A 64-bit integer whose +, -, * and floor division throw bb::calc::Error instead of wrapping.
// The model's counts (FLOPs, bytes, parameters) are exact integers; no double ever sits in between.
class Int {
 public:
  constexpr Int() = default;
  constexpr Int(std::int64_t v) : v_(v) {}  // NOLINT: implicit from literals keeps formulas readable
  constexpr std::int64_t value() const { return v_; }

  friend Int operator+(Int a, Int b) {
    std::int64_t r;
    if (__builtin_add_overflow(a.v_, b.v_, &r)) overflow("+", a, b);
    return r;
  }
  friend Int operator-(Int a, Int b) {
    std::int64_t r;
    if (__builtin_sub_overflow(a.v_, b.v_, &r)) overflow("-", a, b);
    return r;
  }
  friend Int operator*(Int a, Int b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a.v_, b.v_, &r)) overflow("*", a, b);
    return r;
  }
  // Python's // (floor division).
  friend Int operator/(Int a, Int b) {
    if (b.v_ == 0) throw Error("integer division by zero");
    if (a.v_ == INT64_MIN && b.v_ == -1) overflow("//", a, b);
    std::int64_t q = a.v_ / b.v_;
    if ((a.v_ % b.v_ != 0) && ((a.v_ < 0) != (b.v_ < 0))) --q;
    return q;
  }
  // Python's % (result has the sign of the divisor).
  friend Int operator%(Int a, Int b) { return a - (a / b) * b; }
  Int& operator+=(Int b) { return *this = *this + b; }
  Int& operator-=(Int b) { return *this = *this - b; }
  Int& operator*=(Int b) { return *this = *this * b; }

  friend constexpr bool operator==(Int a, Int b) = default;
  friend constexpr auto operator<=>(Int a, Int b) = default;

 private:
  [[noreturn]] static void overflow(const char* op, Int a, Int b) {
    throw Error("integer overflow: " + std::to_string(a.v_) + " " + op + " " + std::to_string(b.v_) +
                " does not fit in 64 bits");
  }
  std::int64_t v_ = 0;
};

// ceil(a / b) for b > 0.
inline Int ceil_div(Int a, Int b) {
  return a / b + ((a % b).value() != 0 ? 1 : 0);
}
inline Int max(Int a, Int b) {
  return a < b ? b : a;
}
inline Int min(Int a, Int b) {
  return a < b ? a : b;
}

}  // namespace bb::calc
