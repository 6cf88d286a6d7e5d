// Peer test: Debian's `pandoc --mathml` converts the same fixture formulas; both must contain the
// same identifiers, numbers, operators and texts in the same order (after the normalisations in
// tokens.cpp, documented in docs/math.md).
#include <gtest/gtest.h>

#include <set>

#include "fixtures.hpp"
#include "math/mathml.hpp"
#include "pandoc_peer.hpp"
#include "tokens.hpp"

namespace bb::math::test {
namespace {

// Fixtures that exercise TeX which pandoc 2.17 (texmath) rejects; there is nothing to compare.
const std::set<std::string> kBeyondPandoc = {
    "operatorname-star.display",  // \operatorname* is not in texmath's grammar
    "beyond-pandoc.display",      // \cfrac, \hphantom, \vphantom, \notag, \lbrack, \bigodot
};

TEST(Peer, FixturesAgreeWithPandoc) {
  const std::optional<std::string> pandoc = pandoc_executable();
  if (!pandoc) GTEST_SKIP() << "pandoc not found (install Debian's pandoc or set BOOKBUILD_PANDOC)";
  const std::vector<GoldenCase> cases = golden_cases();
  std::vector<Formula> formulas;
  for (const GoldenCase& c : cases) formulas.push_back({c.tex, c.display});
  const std::vector<std::string> theirs = pandoc_mathml(*pandoc, formulas);

  int agree = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name + ": " + cases[i].tex);
    if (kBeyondPandoc.contains(cases[i].name)) {
      EXPECT_TRUE(theirs[i].empty())
          << "pandoc now converts this fixture: compare it (remove it from kBeyondPandoc)";
      continue;
    }
    if (theirs[i].empty()) {
      ADD_FAILURE() << "pandoc could not convert this formula";
      continue;
    }
    bool ours_ok = false, theirs_ok = false;
    const TokenStream a = tokens_of(to_mathml(cases[i].tex, cases[i].display).mathml, ours_ok);
    const TokenStream b = tokens_of(theirs[i], theirs_ok);
    ASSERT_TRUE(ours_ok);
    ASSERT_TRUE(theirs_ok) << theirs[i];
    EXPECT_EQ(describe(a), describe(b)) << "pandoc: " << theirs[i];
    if (a == b) ++agree;
  }
  std::cout << "[ peer     ] " << agree << " of " << cases.size() - kBeyondPandoc.size()
            << " comparable fixtures agree with pandoc\n";
}

// The comparison itself must be able to fail: a different operator or number is a difference.
TEST(Peer, ComparisonNoticesDifferences) {
  bool ok = false;
  const TokenStream plus = tokens_of(to_mathml("a+1", false).mathml, ok);
  const TokenStream minus = tokens_of(to_mathml("a-1", false).mathml, ok);
  const TokenStream two = tokens_of(to_mathml("a+2", false).mathml, ok);
  const TokenStream ident = tokens_of(std::string("<math><mi>a</mi><mi>+</mi><mn>1</mn></math>"), ok);
  EXPECT_NE(plus, minus);
  EXPECT_NE(plus, two);
  EXPECT_NE(plus, ident);
  EXPECT_EQ(plus, tokens_of(to_mathml("a + 1", true).mathml, ok));
}

}  // namespace
}  // namespace bb::math::test
