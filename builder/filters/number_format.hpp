// Formatting computed numbers for prose, and reading typed numbers back, in an edition's locale.
//
// A format spec is what follows `|` in a placeholder: `int`, `fixed:2`, `sig:3`, a unit with
// optional decimals (`GiB:2`, `TFLOPs:1`, `ms:3`, `%:1`), and an optional `:bare` to leave out the
// unit word. See docs/manuscripts.md for the table of units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/config.hpp"
#include "text/decimal.hpp"

namespace bb::filters {

// A computed value: an exact integer or a double.
struct Number {
  bool is_integer = true;
  std::int64_t integer = 0;
  double real = 0;
  [[nodiscard]] long double value() const { return is_integer ? static_cast<long double>(integer) : real; }
};

struct Unit {
  std::string name;         // canonical: "GiB", "TFLOPs", "ms", "%"
  long double scale = 1;    // value in base units per unit (GiB: 2^30, ms: 1e-3, %: 0.01)
  int pow2 = 0, pow10 = 0;  // the same scale exactly: 2^pow2 × 10^pow10 (Gbit/s: 2^-3 × 10^9)
};

// A known unit by canonical name or by one of its localized words ("ГиБ", "мс"); nullopt if unknown.
std::optional<Unit> find_unit(std::string_view word);
// Every unit, once each (no second spelling such as `us` for μs).
std::vector<Unit> all_units();
// The word an edition prints for a unit ("GiB", "ГиБ").
std::string unit_word(const Unit& unit, std::string_view lang);

struct Format {
  enum class Style { Default, Integer, Fixed, Significant } style = Style::Default;
  int digits = -1;  // decimals (Fixed, unit) or significant digits; -1: as needed
  std::optional<Unit> unit;
  bool bare = false;  // no unit word
};

// Parses a spec; on failure returns nullopt and sets `error`.
std::optional<Format> parse_format(std::string_view spec, std::string& error);

// A computed value as an exact decimal, divided by the unit's scale exactly: a double is taken at its
// shortest round-trip digits (3.35e12 B/s is 3.35 TB/s, not 3.3499999…). Finite values only.
text::Decimal exact_value(const Number& n, const std::optional<Unit>& unit);

// Formats a value for an edition: digit grouping, decimal mark, unit word. Every style rounds the
// exact decimal value half away from zero (3.35 TB/s at one decimal is 3.4, 0.125 at two is 0.13).
std::string format_number(const Number& n, const Format& f, const book::NumberLocale& locale,
                          std::string_view lang);

// Groups the digits of a plain decimal string ("-1234567.5" → "-1,234,567.5") for a locale.
std::string localize_decimal(std::string_view plain, const book::NumberLocale& locale);

// A number typed in prose, read back: its value in the unit's terms, the decimals shown, and the
// unit if one follows it ("133.59 TFLOPs" → 133.59, 2, TFLOPs).
struct Literal {
  long double value = 0;
  std::string digits;  // the value as a plain decimal ("-1234.50"), for exact comparison
  int decimals = 0;
  std::optional<Unit> unit;
};
std::optional<Literal> parse_literal(std::string_view text, const book::NumberLocale& locale);

}  // namespace bb::filters
