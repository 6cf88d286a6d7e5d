// Error tests: formulas outside the subset report every problem, each at the right byte offset
// with the expected message, and still produce well-formed best-effort MathML.
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "fixtures.hpp"
#include "math/mathml.hpp"

namespace bb::math::test {
namespace {

class Errors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(Errors, ReportsEveryErrorAtItsOffset) {
  const ErrorCase& c = GetParam();
  ASSERT_FALSE(c.errors.empty()) << "errors.txt:" << c.line << " lists no expected error";
  const MathResult r = to_mathml(c.tex, c.display);
  std::vector<std::string> got, want;
  for (const MathError& e : r.errors) got.push_back(std::to_string(e.offset) + ": " + e.message);
  for (const ExpectedError& e : c.errors) want.push_back(std::to_string(e.offset) + ": " + e.message);
  EXPECT_EQ(got, want) << "errors.txt:" << c.line << ": " << c.tex;

  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(r.mathml.c_str())) << r.mathml;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Errors, ::testing::ValuesIn(error_cases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& info) {
                           return "line" + std::to_string(info.param.line);
                         });

TEST(Position, CountsLinesAndBytesWithinTheFormula) {
  const std::string tex = "a=b,\\quad\n\\foo+1\n  x";
  EXPECT_EQ(position_in(tex, 0).line_delta, 0u);
  EXPECT_EQ(position_in(tex, 2).column, 2u);
  const TexPosition foo = position_in(tex, tex.find("\\foo"));
  EXPECT_EQ(foo.line_delta, 1u);
  EXPECT_EQ(foo.column, 0u);
  const TexPosition x = position_in(tex, tex.find('x'));
  EXPECT_EQ(x.line_delta, 2u);
  EXPECT_EQ(x.column, 2u);
  // Columns count bytes, as manuscript columns do: 层 is three bytes.
  const std::string cjk = "\\text{层}\\bad";
  EXPECT_EQ(position_in(cjk, cjk.find("\\bad")).column, 10u);
}

TEST(Output, EscapesTheTexInAlttextAndText) {
  const MathResult r = to_mathml("a<b \\text{\"R&D\"} > c", false);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_NE(r.mathml.find("alttext=\"a&lt;b \\text{&quot;R&amp;D&quot;} &gt; c\""), std::string::npos)
      << r.mathml;
  EXPECT_NE(r.mathml.find("<mtext>&quot;R&amp;D&quot;</mtext>"), std::string::npos) << r.mathml;
  EXPECT_NE(r.mathml.find("<mo>&lt;</mo>"), std::string::npos) << r.mathml;
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(r.mathml.c_str()));
}

TEST(Output, StaysWellFormedForHostileInput) {
  const std::string inputs[] = {std::string(500, '{'),
                                std::string(300, '}'),
                                "\\left(\\left[",
                                "x^^_",
                                "\\frac",
                                "\\begin{aligned}a&b",
                                "\\text{\x01}\xff\xfe",
                                "\\",
                                "$%#"};
  for (const std::string& tex : inputs) {
    const MathResult r = to_mathml(tex, true);
    EXPECT_FALSE(r.errors.empty()) << tex;
    pugi::xml_document doc;
    EXPECT_TRUE(doc.load_string(r.mathml.c_str())) << r.mathml;
  }
}

}  // namespace
}  // namespace bb::math::test
