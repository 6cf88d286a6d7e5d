// Attribute blocks: what is and is not an attribute list.
#include <gtest/gtest.h>

#include "markdown/attributes.hpp"

namespace bb::markdown {
namespace {

TEST(Attributes, IdClassesAndPairs) {
  auto a = parse_attributes("#sec:x .unnumbered .wide width=\"50%\" calc=a.b.c");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->id, "sec:x");
  EXPECT_EQ(a->classes, (std::vector<std::string>{"unnumbered", "wide"}));
  ASSERT_EQ(a->pairs.size(), 2u);
  EXPECT_EQ(a->pairs[0], (std::pair<std::string, std::string>{"width", "50%"}));
  EXPECT_EQ(a->pairs[1], (std::pair<std::string, std::string>{"calc", "a.b.c"}));
}

TEST(Attributes, DashMeansUnnumbered) {
  auto a = parse_attributes("-");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->classes, std::vector<std::string>{"unnumbered"});
}

TEST(Attributes, ProseInBracesIsNotAnAttributeList) {
  EXPECT_FALSE(parse_attributes("a, b"));
  EXPECT_FALSE(parse_attributes(""));
  EXPECT_FALSE(parse_attributes("#"));
  EXPECT_FALSE(parse_attributes("#a #b"));
  EXPECT_FALSE(parse_attributes("key=\"unterminated"));
  EXPECT_FALSE(parse_attributes("x^2"));
}

TEST(Attributes, TrailingBlockIsSplitFromText) {
  auto t = trailing_attributes("Title text {#sec:t}  ");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->attrs.id, "sec:t");
  EXPECT_EQ(t->keep, 10u);
  EXPECT_FALSE(trailing_attributes("Set {a, b}"));
  EXPECT_FALSE(trailing_attributes("{{calc a.b}}"));
}

}  // namespace
}  // namespace bb::markdown
