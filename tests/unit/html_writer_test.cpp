// HTML writer: fixture manuscripts render to the expected HTML, which is well-formed XML in XHTML mode.
#include "diag/diagnostics.hpp"
#include "markdown/frontend.hpp"
#include "test_support.hpp"
#include "writers/escape.hpp"
#include "writers/html.hpp"

namespace bb::writers {
namespace {

namespace fs = std::filesystem;

class HtmlFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(HtmlFixture, MatchesGolden) {
  fs::path md = test::fixtures() / "html" / (GetParam() + ".md");
  Diagnostics d;
  auto root = markdown::parse(test::read_file(md), md.filename(), d);
  test::expect_golden(md.parent_path() / (GetParam() + ".html"), render_html(root));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HtmlFixture, ::testing::Values("blocks", "notes", "gfm", "pandoc"));

TEST(HtmlWriter, FootnotesHaveBackLinksToEveryReference) {
  Diagnostics d;
  auto root = markdown::parse("a[^x] b[^x]\n\n[^x]: note\n", "t.md", d);
  std::string html = render_html(root);
  EXPECT_NE(html.find("id=\"fnref-x\""), std::string::npos);
  EXPECT_NE(html.find("id=\"fnref-x-2\""), std::string::npos);
  EXPECT_NE(html.find("href=\"#fnref-x\""), std::string::npos);
  EXPECT_NE(html.find("href=\"#fnref-x-2\""), std::string::npos);
  EXPECT_NE(html.find("<li id=\"fn-x\""), std::string::npos);
}

TEST(HtmlWriter, EscapesTextAndAttributes) {
  Diagnostics d;
  auto root = markdown::parse("a < b & [l](x?a=1&b=\"2\")\n", "t.md", d);
  std::string html = render_html(root);
  EXPECT_NE(html.find("a &lt; b &amp; "), std::string::npos) << html;
  EXPECT_NE(html.find("href=\"x?a=1&amp;b=&quot;2&quot;\""), std::string::npos) << html;
}

TEST(HtmlWriter, XhtmlClosesVoidElementsAndMarksNotes) {
  Diagnostics d;
  auto root = markdown::parse("a  \nb[^x]\n\n---\n\n[^x]: n\n", "t.md", d);
  HtmlOptions o;
  o.xhtml = true;
  std::string html = render_html(root, o);
  EXPECT_NE(html.find("<br />"), std::string::npos);
  EXPECT_NE(html.find("<hr />"), std::string::npos);
  EXPECT_NE(html.find("epub:type=\"noteref\""), std::string::npos);
}

TEST(HtmlWriter, AFormulaInAHeaderCellIsNamedByItsSource) {
  Diagnostics d;
  auto root = markdown::parse("| | $M=1$ | rows $x<y$ |\n| - | - | - |\n| a | $z$ | b |\n", "t.md", d);
  std::string html = render_html(root);
  // The corner is a td; each header formula is a named math span; a body formula is not.
  EXPECT_NE(html.find("<td></td><th><span class=\"math inline\" role=\"math\" aria-label=\"M=1\">"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("rows <span class=\"math inline\" role=\"math\" aria-label=\"x&lt;y\">"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td><span class=\"math inline\">"), std::string::npos) << html;
  EXPECT_EQ(html.find("role=\"math\" aria-label=\"z\""), std::string::npos) << html;
}

TEST(Escape, SanitizeIdKeepsLettersOfAnyScript) {
  EXPECT_EQ(sanitize_id("sec:4.2"), "sec:4.2");
  EXPECT_EQ(sanitize_id("a b/c"), "a-b-c");
  EXPECT_EQ(sanitize_id("带宽"), "带宽");
  EXPECT_EQ(sanitize_id("1x"), "id-1x");
}

}  // namespace
}  // namespace bb::writers
