// Golden tests: every fixture formula converts without errors to exactly the MathML on file, and
// that MathML is well-formed XML. BOOKBUILD_UPDATE_GOLDEN=1 rewrites the .mml files instead.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <pugixml.hpp>

#include "fixtures.hpp"
#include "math/mathml.hpp"

namespace bb::math::test {
namespace {

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesExpectedMathML) {
  const GoldenCase& c = GetParam();
  const MathResult r = to_mathml(c.tex, c.display);
  for (const MathError& e : r.errors) ADD_FAILURE() << "offset " << e.offset << ": " << e.message;

  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(r.mathml.c_str())) << r.mathml;

  if (const char* update = std::getenv("BOOKBUILD_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(c.expected_path, std::ios::binary) << r.mathml << '\n';
    GTEST_SKIP() << "rewrote " << c.expected_path;
  }
  ASSERT_TRUE(std::filesystem::exists(c.expected_path)) << "missing " << c.expected_path;
  std::string expected = read_file(c.expected_path);
  if (expected.ends_with('\n')) expected.pop_back();
  EXPECT_EQ(r.mathml, expected);
}

std::string case_name(const ::testing::TestParamInfo<GoldenCase>& info) {
  std::string name;
  for (char ch : info.param.name) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Golden, ::testing::ValuesIn(golden_cases()), case_name);

}  // namespace
}  // namespace bb::math::test
