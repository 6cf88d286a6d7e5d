// Exact integers and Python-identical float text: the base everything else prints with.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "calc/checked_int.hpp"
#include "calc/error.hpp"
#include "calc/json.hpp"
#include "calc/pynum.hpp"

using bb::calc::Int;
using bb::calc::py_repr;

TEST(PyRepr, MatchesPythonRepr) {
  EXPECT_EQ(py_repr(1e-05), "1e-05");
  EXPECT_EQ(py_repr(1.2245760000000001e-05), "1.2245760000000001e-05");
  EXPECT_EQ(py_repr(0.020895522388059702), "0.020895522388059702");
  EXPECT_EQ(py_repr(47.857142857142854), "47.857142857142854");
  EXPECT_EQ(py_repr(295.34328358208955), "295.34328358208955");
  EXPECT_EQ(py_repr(2.0), "2.0");
  EXPECT_EQ(py_repr(0.0001), "0.0001");
  EXPECT_EQ(py_repr(0.00012), "0.00012");
  EXPECT_EQ(py_repr(1e16), "1e+16");
  EXPECT_EQ(py_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(py_repr(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(py_repr(3350000000000.0), "3350000000000.0");
  EXPECT_EQ(py_repr(-0.5), "-0.5");
  EXPECT_EQ(py_repr(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(py_repr(5e-324), "5e-324");
  EXPECT_EQ(py_repr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_THROW(py_repr(std::nan("")), bb::calc::Error);
  EXPECT_THROW(py_repr(std::numeric_limits<double>::infinity()), bb::calc::Error);
}

TEST(PyRepr, RoundTripsOnManyValues) {
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v;
    std::uint64_t bits = (x & 0x7fefffffffffffffull);
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    std::string text = py_repr(v);
    double back = 0;
    std::from_chars(text.data(), text.data() + text.size(), back);
    EXPECT_EQ(back, v) << text;
  }
}

TEST(TrueDivision, IsCorrectlyRoundedBeyondTwoToThe53) {
  // Converting each operand to double first would round twice; Python's int / int rounds once.
  const __int128 a = (static_cast<__int128>(1) << 62) + (1 << 9) + 1;
  EXPECT_EQ(py_repr(bb::calc::true_div(a, 3)), "1.5372286728091295e+18");
  EXPECT_EQ(py_repr(bb::calc::true_div(Int(1759673414212045851), Int(231020807705))), "7616947.718661972");
  EXPECT_EQ(bb::calc::true_div(Int(33554432), Int(33570816)), 0.9995119570522206);
  EXPECT_EQ(bb::calc::true_div(Int(-7), Int(2)), -3.5);
  EXPECT_THROW(bb::calc::true_div(Int(1), Int(0)), bb::calc::Error);
}

TEST(CheckedInt, OverflowIsAnErrorNotAWrap) {
  Int big = std::numeric_limits<std::int64_t>::max();
  EXPECT_THROW(big + 1, bb::calc::Error);
  EXPECT_THROW(big * 2, bb::calc::Error);
  EXPECT_THROW(Int(std::numeric_limits<std::int64_t>::min()) - 1, bb::calc::Error);
  EXPECT_EQ((Int(-7) / 2).value(), -4);  // Python floor division
  EXPECT_EQ((Int(-7) % 2).value(), 1);
  EXPECT_EQ(bb::calc::ceil_div(7, 2).value(), 4);
  EXPECT_THROW(Int(1) / 0, bb::calc::Error);
}

TEST(ExactIntParsing, AcceptsIntegerSpellingsOnly) {
  EXPECT_EQ(bb::calc::parse_exact_int("7e10", "x").value(), 70000000000);
  EXPECT_EQ(bb::calc::parse_exact_int("8192", "x").value(), 8192);
  EXPECT_EQ(bb::calc::parse_exact_int("1.5e3", "x").value(), 1500);
  EXPECT_EQ(bb::calc::parse_exact_int("50e9", "x").value(), 50000000000);
  EXPECT_EQ(bb::calc::parse_exact_int("-3", "x").value(), -3);
  for (const char* bad : {"1.5", "1e-3", "nan", "inf", "", "12abc", "1e40", "99999999999999999999"})
    EXPECT_THROW(bb::calc::parse_exact_int(bad, "x"), bb::calc::Error) << bad;
  EXPECT_THROW(bb::calc::parse_finite_double("nan", "x"), bb::calc::Error);
  EXPECT_THROW(bb::calc::parse_finite_double("inf", "x"), bb::calc::Error);
  EXPECT_EQ(bb::calc::parse_finite_double("3e-6", "x"), 3e-6);
}

TEST(JsonWriter, LaysOutLikePythonJsonDumps) {
  bb::calc::Json doc = bb::calc::Json::object();
  doc["a"] = 1;
  doc["b"] = bb::calc::Json::object();
  doc["c"] = bb::calc::Json::array({1.0, "é\"\n", nullptr, true});
  doc["d"] = bb::calc::Json::array();
  EXPECT_EQ(
      bb::calc::dump_json(doc),
      "{\n  \"a\": 1,\n  \"b\": {},\n  \"c\": [\n    1.0,\n    \"é\\\"\\n\",\n    null,\n    true\n  ],\n"
      "  \"d\": []\n}\n");
}
