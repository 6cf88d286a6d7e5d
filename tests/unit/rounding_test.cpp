// Decimal-exact rounding of every printed number (issue 51): text::Decimal on its own, then every
// unit and precision of the format specs at values exactly on the rounding edge, in every output path
// that prints a computed number (prose, chart labels and data tables).
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "book/config.hpp"
#include "filters/charts.hpp"
#include "filters/number_format.hpp"
#include "new_book.hpp"
#include "text/decimal.hpp"

namespace bb {
namespace {

using filters::Number;
using text::Decimal;

Decimal dec(std::string_view s) {
  auto d = Decimal::parse(s);
  EXPECT_TRUE(d) << s;
  return d.value_or(Decimal());
}

TEST(Decimal, ReadsTheShortestDigitsOfADouble) {
  EXPECT_EQ(Decimal::of(3.35e12).plain(), "3350000000000");
  EXPECT_EQ(Decimal::of(0.1 + 0.2).plain(), "0.30000000000000004");
  EXPECT_EQ(Decimal::of(-1.2245760000000001e-05).plain(), "-0.000012245760000000001");
  EXPECT_EQ(Decimal::of(0.0).plain(), "0");
  EXPECT_EQ(Decimal::of(-0.0).plain(), "0");
  EXPECT_EQ(Decimal::of(std::int64_t{-9223372036854775807} - 1).plain(), "-9223372036854775808");
}

TEST(Decimal, ParsesWhatABookTypesAndRefusesTheRest) {
  EXPECT_EQ(dec("133.590").plain(), "133.59");
  EXPECT_EQ(dec(".5").plain(), "0.5");
  EXPECT_EQ(dec("5.").plain(), "5");
  EXPECT_EQ(dec("1e3").plain(), "1000");
  EXPECT_EQ(dec("-2.5E-2").plain(), "-0.025");
  for (std::string_view bad : {"", "-", ".", "1e", "1e+", "1.2.3", "+1", "1 ", "0x10", "inf", "1e1001"})
    EXPECT_FALSE(Decimal::parse(bad)) << bad;
}

TEST(Decimal, ScalesByPowersOfTwoAndTenExactly) {
  EXPECT_EQ(Decimal::of(3.35e12).scaled(0, -12).plain(), "3.35");
  EXPECT_EQ(dec("1207959552").scaled(-30, 0).plain(), "1.125");
  EXPECT_EQ(dec("1").scaled(-40, 0).plain(), "0.0000000000009094947017729282379150390625");
  EXPECT_EQ(dec("1.25").scaled(3, 8).plain(), "1000000000");  // 1.25 Gbit/s in bytes/s, and back:
  EXPECT_EQ(dec("1000000000").scaled(-3, 9).scaled(3, -9).plain(), "1000000000");
}

TEST(Decimal, RoundsHalfAwayFromZero) {
  EXPECT_EQ(dec("3.35").fixed(1), "3.4");
  EXPECT_EQ(dec("-3.35").fixed(1), "-3.4");
  EXPECT_EQ(dec("0.125").fixed(2), "0.13");
  EXPECT_EQ(dec("2.5").fixed(0), "3");
  EXPECT_EQ(dec("3.3499999999999999").fixed(1), "3.3");
  EXPECT_EQ(dec("9.95").fixed(1), "10.0");
  EXPECT_EQ(dec("0.049").fixed(1), "0.0");
  EXPECT_EQ(dec("-0.04").fixed(1), "0.0");  // no "-0.0"
  EXPECT_EQ(dec("0.05").fixed(1), "0.1");
  EXPECT_EQ(dec("0.005").fixed(1), "0.0");
  EXPECT_EQ(dec("1250").fixed(-2), "1300");
  EXPECT_EQ(dec("7").fixed(3), "7.000");
  EXPECT_EQ(dec("295.34328358208955").significant(3), "295");
  EXPECT_EQ(dec("123456").significant(2), "120000");
  EXPECT_EQ(dec("0.0012345").significant(3), "0.00123");
  EXPECT_EQ(dec("1.5").significant(3), "1.50");
  EXPECT_EQ(dec("9.96").significant(2), "10");
  EXPECT_EQ(dec("-0.000995").significant(2), "-0.0010");
}

TEST(Decimal, AddsSubtractsAndCompares) {
  EXPECT_EQ((dec("3.35") - dec("3.4")).plain(), "-0.05");
  EXPECT_EQ((dec("-1") + dec("0.001")).plain(), "-0.999");
  EXPECT_EQ((dec("1e20") + dec("1e-20")).plain(), "100000000000000000000.00000000000000000001");
  EXPECT_EQ(compare(dec("0.05"), (dec("3.35") - dec("3.3")).abs()), 0);
  EXPECT_EQ(compare(dec("-2"), dec("1")), -1);
  EXPECT_EQ(compare(dec("2"), dec("-1")), 1);
  EXPECT_EQ(compare(dec("0"), dec("-0")), 0);
}

// The edge itself: `m` and a half units shown at `d` decimals, in base units, built with integers only:
// (2m+1) × 2^(pow2-1) × 10^(pow10-d), as mantissa and power of ten. `finer` appends that many digits
// and then moves the value one unit of the last of them up (+1) or down (-1): just past the edge.
// Empty when the mantissa reaches 10^14: under it, the edge and its neighbours have at most 15
// significant digits, which a double keeps exactly (its shortest form reads back as typed).
std::string edge(std::int64_t m, const filters::Unit& u, int d, int finer = 0, int side = 0) {
  const long double size = (2.0L * m + 1) * std::pow(2.0L, std::max(u.pow2 - 1, 0)) *
                           std::pow(5.0L, std::max(1 - u.pow2, 0)) * std::pow(10.0L, finer);
  if (size >= 1e14L) return "";
  std::int64_t mantissa = 2 * m + 1;
  int exponent = u.pow10 - d;
  for (int k = 0; k < u.pow2 - 1; ++k) mantissa *= 2;
  for (int k = 0; k < 1 - u.pow2; ++k, --exponent) mantissa *= 5;  // 2^-1 = 5 × 10^-1
  for (int k = 0; k < finer; ++k, --exponent) mantissa *= 10;
  return std::to_string(mantissa + side) + "e" + std::to_string(exponent);
}

bool fits_a_double(const std::string& s) {
  return !s.empty();
}

double to_double(const std::string& s) {
  double v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// `k` units of 10^-d, written with d decimals: (34, 1) → "3.4".
std::string shown(std::int64_t k, int d) {
  std::string s = std::to_string(k);
  if (d <= 0) return s + std::string(static_cast<std::size_t>(-d), '0');
  if (s.size() <= static_cast<std::size_t>(d)) s.insert(0, static_cast<std::size_t>(d) + 1 - s.size(), '0');
  return s.insert(s.size() - static_cast<std::size_t>(d), ".");
}

std::string format(double v, const std::string& spec) {
  std::string err;
  auto f = filters::parse_format(spec, err);
  EXPECT_TRUE(f) << err;
  Number n;
  n.is_integer = false;
  n.real = v;
  std::string out = filters::format_number(n, *f, book::default_numbers("en"), "en");
  std::erase(out, ',');
  return out;
}

const std::int64_t kWholes[] = {0, 1, 2, 3, 4, 5, 9, 12, 33, 49, 99, 335, 1234, 99999, 3141592};

TEST(Rounding, EveryUnitAndPrecisionRoundsItsEdgeHalfAwayFromZero) {
  int checked = 0;
  for (const auto& u : filters::all_units()) {
    for (int d = 0; d <= 6; ++d) {
      const std::string spec = u.name + ":" + std::to_string(d) + ":bare";
      for (std::int64_t m : kWholes) {
        if (!fits_a_double(edge(m, u, d, 1))) continue;
        SCOPED_TRACE(spec + " at " + edge(m, u, d));
        EXPECT_EQ(format(to_double(edge(m, u, d)), spec), shown(m + 1, d));
        EXPECT_EQ(format(-to_double(edge(m, u, d)), spec), "-" + shown(m + 1, d));
        EXPECT_EQ(format(to_double(edge(m, u, d, 1, -1)), spec), shown(m, d));
        EXPECT_EQ(format(to_double(edge(m, u, d, 1, +1)), spec), shown(m + 1, d));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Rounding, SignificantDigitsRoundTheirEdgeHalfAwayFromZero) {
  int checked = 0;
  for (const auto& u : filters::all_units()) {
    for (int digits = 1; digits <= 6; ++digits) {
      const std::string spec = u.name + ":sig" + std::to_string(digits) + ":bare";
      const auto low = static_cast<std::int64_t>(std::pow(10, digits - 1));
      // m has `digits` digits, m + 1 too (no carry into one digit more); the edge at d decimals.
      for (std::int64_t m : {low, low + 2, 3 * low + 4, 10 * low - 2}) {
        for (int d = -2; d <= 4; ++d) {
          if (m + 1 >= 10 * low || !fits_a_double(edge(m, u, d, 1))) continue;
          SCOPED_TRACE(spec + " at " + edge(m, u, d));
          EXPECT_EQ(format(to_double(edge(m, u, d)), spec), shown(m + 1, d));
          EXPECT_EQ(format(to_double(edge(m, u, d, 1, -1)), spec), shown(m, d));
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(Rounding, PlainFixedAndIntegerFormatsToo) {
  for (int d = 0; d <= 6; ++d)
    for (std::int64_t m : kWholes) {
      const filters::Unit one{"", 1, 0, 0};
      SCOPED_TRACE(edge(m, one, d));
      EXPECT_EQ(format(to_double(edge(m, one, d)), "fixed:" + std::to_string(d)), shown(m + 1, d));
      if (d == 0) {
        EXPECT_EQ(format(to_double(edge(m, one, d)), "int"), shown(m + 1, 0));
      }
    }
}

TEST(Rounding, TheIssuesExample) {
  Number bw{true, 3350000000000, 0};
  std::string err;
  auto tb1 = filters::parse_format("TB/s:1", err), tb2 = filters::parse_format("TB/s:2", err);
  EXPECT_EQ(filters::format_number(bw, *tb1, book::default_numbers("en"), "en"), "3.4 TB/s");
  EXPECT_EQ(filters::format_number(bw, *tb2, book::default_numbers("en"), "en"), "3.35 TB/s");
  EXPECT_EQ(format(3.35e12, "TB/s:1"), "3.4 TB/s");
  EXPECT_EQ(filters::format_number(bw, *tb1, book::default_numbers("ru"), "ru"), "3,4\u00A0ТБ/с");
}

TEST(Rounding, ChartLabelsAndTablesPrintWhatTheTextPrints) {
  book::Edition en;
  en.id = "en";
  en.lang = "en";
  en.numbers = book::default_numbers("en");
  const auto env = filters::chart_environment(en, nullptr);
  for (const auto& u : filters::all_units())
    for (int d = 0; d <= 3; ++d)
      for (std::int64_t m : kWholes) {
        if (!fits_a_double(edge(m, u, d, 1))) continue;
        const std::string spec = u.name + ":" + std::to_string(d);
        std::string label = env.format(to_double(edge(m, u, d)), spec);
        std::erase(label, ',');
        EXPECT_EQ(label, format(to_double(edge(m, u, d)), spec)) << spec << " at " << edge(m, u, d);
      }
}

// A bound literal's tolerance is half a unit of its last digit however many digits it has: a literal
// typed with 2,000 decimals is checked (and found wrong), not the end of the run.
TEST(Rounding, ALiteralWithThousandsOfDecimalsIsChecked) {
  test::NewBook b;
  b.replace(
      "manuscripts/01-first-steps.md", "## Code",
      "[16." + std::string(2000, '0') + "1 GB]{calc=weights-8b-bf16.total_packed_weight_bytes}.\n\n## Code");
  auto r = b.run("check numbers");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(
      test::has(r.err, "does not match `weights-8b-bf16.total_packed_weight_bytes`: recomputed 16.000"))
      << r.err.substr(0, 2000);
}

TEST(Rounding, EveryUnitsScaleIsItsPowersOfTwoAndTen) {
  for (const auto& u : filters::all_units()) {
    const long double exact = std::ldexp(std::pow(10.0L, u.pow10), u.pow2);
    EXPECT_NEAR(static_cast<double>(u.scale / exact), 1.0, 1e-15) << u.name;
  }
}

}  // namespace
}  // namespace bb
