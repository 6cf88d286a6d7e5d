// Equation numbers: `\tag{…}` is read from display formulas (fixtures/tags.txt), kept out of the
// MathML, and removable from the TeX for writers that print the number themselves.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "fixtures.hpp"
#include "math/mathml.hpp"

namespace bb::math::test {
namespace {

struct TagCase {
  int line = 0;
  std::string tex;
  bool has_tag = false;
  bool starred = false;
  std::string text;
  std::string without;
};

void PrintTo(const TagCase& c, std::ostream* os) {
  *os << "tags.txt:" << c.line << ": " << c.tex;
}

std::vector<TagCase> tag_cases() {
  std::istringstream in(read_file(fixtures_dir() / "tags.txt"));
  std::vector<TagCase> cases;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line.starts_with('#')) continue;
    const auto field = [&](std::string_view key) -> std::optional<std::string> {
      if (!line.starts_with(key)) return std::nullopt;
      return line.substr(key.size());
    };
    if (auto tex = field("display: ")) {
      cases.push_back({number, *tex, false, false, {}, {}});
    } else if (cases.empty()) {
      throw std::runtime_error("tags.txt:" + std::to_string(number) + ": expected display:");
    } else if (auto t = field("tag: ")) {
      cases.back().has_tag = true;
      cases.back().text = *t;
    } else if (auto s = field("tag*: ")) {
      cases.back().has_tag = true;
      cases.back().starred = true;
      cases.back().text = *s;
    } else if (auto w = field("without: ")) {
      cases.back().without = *w;
    } else if (line != "none") {
      throw std::runtime_error("tags.txt:" + std::to_string(number) + ": unknown line");
    }
  }
  return cases;
}

class Tags : public ::testing::TestWithParam<TagCase> {};

TEST_P(Tags, AreReadAndKeptOutOfTheMathML) {
  const TagCase& c = GetParam();
  const MathResult r = to_mathml(c.tex, true);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front().message);
  const std::optional<EquationTag> tag = equation_tag(c.tex);
  ASSERT_EQ(tag.has_value(), c.has_tag);
  if (!tag) return;
  EXPECT_EQ(tag->text, c.text);
  EXPECT_EQ(tag->starred, c.starred);
  EXPECT_EQ(without_tag(c.tex, *tag), c.without);
  // The number is printed by the writers, next to the formula: the MathML has no trace of it
  // except the TeX in alttext.
  const std::string body = r.mathml.substr(r.mathml.find("\">"));
  EXPECT_EQ(body.find(c.text), std::string::npos) << r.mathml;
  EXPECT_EQ(body.find("tag"), std::string::npos) << r.mathml;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Tags, ::testing::ValuesIn(tag_cases()),
                         [](const ::testing::TestParamInfo<TagCase>& info) {
                           return "line" + std::to_string(info.param.line);
                         });

TEST(Tags, InlineMathHasNone) {
  EXPECT_FALSE(to_mathml("a=b\\tag{1}", false).tag.has_value());
}

}  // namespace
}  // namespace bb::math::test
