// The alignment of two sequences (diff/align.hpp) and the reading of shown numbers (diff/snapshot.hpp),
// checked as properties over many random sequences rather than a few chosen ones.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "diff/align.hpp"
#include "diff/render.hpp"
#include "diff/snapshot.hpp"

namespace {

using bb::diff::align;
using bb::diff::Aligned;

// Longest common subsequence length, the textbook way, to compare the alignment's equal pairs against.
std::size_t lcs(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

TEST(DiffAlign, EveryIndexOnceInOrderAndTheLongestCommonPartEqual) {
  std::mt19937 rng(50);
  for (int round = 0; round < 500; ++round) {
    std::uniform_int_distribution<int> len(0, 30), key(0, 5);
    std::vector<std::string> a(len(rng)), b(len(rng));
    for (auto& x : a) x = std::string(1, static_cast<char>('a' + key(rng)));
    for (auto& x : b) x = std::string(1, static_cast<char>('a' + key(rng)));
    const auto out = align(a, b);
    long last_a = -1, last_b = -1;
    std::size_t equal = 0, seen_a = 0, seen_b = 0;
    for (const Aligned& x : out) {
      ASSERT_TRUE(x.before >= 0 || x.after >= 0);
      if (x.before >= 0) {
        EXPECT_EQ(x.before, last_a + 1);
        last_a = x.before, ++seen_a;
      }
      if (x.after >= 0) {
        EXPECT_EQ(x.after, last_b + 1);
        last_b = x.after, ++seen_b;
      }
      if (x.equal) {
        ++equal;
        EXPECT_EQ(a[static_cast<std::size_t>(x.before)], b[static_cast<std::size_t>(x.after)]);
      }
    }
    EXPECT_EQ(seen_a, a.size());
    EXPECT_EQ(seen_b, b.size());
    EXPECT_EQ(equal, lcs(a, b)) << "round " << round;
  }
}

TEST(DiffAlign, AChangedKeyBetweenEqualOnesIsOnePairNotAnAdditionAndARemoval) {
  const auto out = align({"x", "16 GB", "y"}, {"x", "24 GB", "y"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].before, 1);
  EXPECT_EQ(out[1].after, 1);
  EXPECT_FALSE(out[1].equal);
}

TEST(DiffReadNumber, ReadsEachLocaleToTheSameValue) {
  bb::book::NumberLocale en, ru;
  ru.decimal = ",";
  ru.group = " ";
  ru.group_min_digits = 5;
  auto a = bb::diff::read_number("2.5 GB", en), b = bb::diff::read_number("2,5 ГБ", ru);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->dim, b->dim);
  EXPECT_DOUBLE_EQ(a->value, b->value);
  auto g = bb::diff::read_number("8,192", en), h = bb::diff::read_number("8 192", ru);
  ASSERT_TRUE(g && h);
  EXPECT_DOUBLE_EQ(g->raw, 8192);
  EXPECT_DOUBLE_EQ(h->raw, 8192);
  // A unit bookbuild does not know still reads as the number written.
  auto c = bb::diff::read_number("8 張卡", en);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->raw, 8);
  EXPECT_FALSE(bb::diff::read_number("no digits", en));
}

TEST(DiffPercent, SignAndPrecisionFollowTheSize) {
  EXPECT_EQ(bb::diff::percent(0.111), "+11%");
  EXPECT_EQ(bb::diff::percent(-0.087), "−8.7%");
  EXPECT_EQ(bb::diff::percent(0.0024), "+0.24%");
}

}  // namespace
