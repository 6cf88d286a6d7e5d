// The LaTeX writer: escaping, each construct's LaTeX (fixture .md → golden .tex), the numbering
// contract with the filters, and the source map.
#include "book/config.hpp"
#include "diag/diagnostics.hpp"
#include "markdown/frontend.hpp"
#include "test_support.hpp"
#include "writers/escape.hpp"
#include "writers/latex.hpp"
#include "writers/latex/cjk_width.hpp"

namespace bb::writers {
namespace {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

fs::path latex_fixtures() {
  return BOOKBUILD_LATEX_FIXTURES;
}

const book::Labels& zh_labels() {
  static const book::Labels labels = book::default_labels("zh-Hans");
  return labels;
}

// A resolver like the book's: other chapter files become labels, the repository becomes a URL.
LatexOptions fixture_options() {
  LatexOptions o;
  o.chapter = "ch01";
  o.labels = &zh_labels();
  o.image = [](const Node& img) -> std::string {
    if (img.url().find("://") != std::string::npos) return "";
    return "figures/" + fs::path(img.url()).stem().string() + ".pdf";
  };
  o.link = [](const Node& link) -> LatexLink {
    const std::string& url = link.url();
    if (url.find("://") != std::string::npos || url.starts_with("mailto:")) return {"", url};
    if (url.starts_with("#")) return {latex_key("ch01", url.substr(1)), ""};
    if (url.starts_with("02-other.md")) return {latex_key("ch02", url.substr(url.find('#') + 1)), ""};
    if (url.starts_with("../calculations/"))
      return {"", "https://example.org/repo/blob/abc123/" + url.substr(3)};
    return {};
  };
  return o;
}

class LatexFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(LatexFixture, MatchesGolden) {
  fs::path md = latex_fixtures() / (GetParam() + ".md");
  Diagnostics d;
  auto root = markdown::parse(test::read_file(md), md.filename(), d);
  test::expect_golden(md.parent_path() / (GetParam() + ".tex"), render_latex(root, fixture_options()).tex);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, LatexFixture,
                         ::testing::Values("blocks", "figures", "tables", "notes", "math", "links",
                                           "pandoc"));

std::string render(const std::string& md) {
  Diagnostics d;
  auto root = markdown::parse(md, "t.md", d);
  return render_latex(root, fixture_options()).tex;
}

bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

TEST(LatexEscape, EverySpecialCharacterInText) {
  EXPECT_EQ(escape_latex("\\ { } $ & # ^ _ % ~"),
            "\\textbackslash{} \\{ \\} \\$ \\& \\# \\textasciicircum{} \\_ \\% \\textasciitilde{}");
  EXPECT_EQ(escape_latex("a--b << >> `x` \"q\""),
            "a-{}-b <{}< >{}> \\textasciigrave{}x\\textasciigrave{} \\textquotedbl{}q\\textquotedbl{}");
  EXPECT_EQ(escape_latex("带宽 μs → ok"), "带宽 μs → ok");
}

// The specials are found sixteen bytes at a time: every byte value (the specials, their neighbours in
// the code table, UTF-8 bytes), at every offset of a text longer than one block, between multi-byte
// characters, and doubled, is escaped as a byte-by-byte escape would.
TEST(LatexEscape, EveryByteAtEveryOffsetAsByteByByte) {
  auto one_at_a_time = [](std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      const std::string_view specials = "\\{}$&#_%^~`\"", escaped[] = {"\\textbackslash{}",
                                                                       "\\{",
                                                                       "\\}",
                                                                       "\\$",
                                                                       "\\&",
                                                                       "\\#",
                                                                       "\\_",
                                                                       "\\%",
                                                                       "\\textasciicircum{}",
                                                                       "\\textasciitilde{}",
                                                                       "\\textasciigrave{}",
                                                                       "\\textquotedbl{}"};
      if (const auto k = specials.find(c); k != std::string_view::npos) {
        out += escaped[k];
      } else {
        out += c;
        if ((c == '-' || c == '<' || c == '>') && i + 1 < s.size() && s[i + 1] == c) out += "{}";
      }
    }
    return out;
  };
  for (int byte = 0; byte < 256; ++byte)
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text = "计算ab计算cd计算ef计算gh计算ij计算kl";  // 48 bytes
      text.insert(at, 1, static_cast<char>(byte));
      ASSERT_EQ(escape_latex(text), one_at_a_time(text)) << byte << " at " << at;
      text.insert(at, 1, static_cast<char>(byte));
      ASSERT_EQ(escape_latex(text), one_at_a_time(text)) << byte << " twice at " << at;
    }
  EXPECT_EQ(escape_latex(""), "");
  EXPECT_EQ(escape_latex(std::string(33, '-')), one_at_a_time(std::string(33, '-')));
}

TEST(LatexEscape, UrlsKeepTheirMeaningInsideArguments) {
  EXPECT_EQ(escape_latex_url("https://x.org/a%20b/c_d?x=1&y=2#frag~u"),
            "https://x.org/a\\%20b/c_d?x=1&y=2\\#frag\\~u");
  EXPECT_EQ(escape_latex_url("https://x.org/{a}\\b^c d"), "https://x.org/%7Ba%7D%5Cb%5Ec%20d");
}

TEST(LatexEscape, LabelsAreAsciiAndDistinct) {
  EXPECT_EQ(latex_label("ch04:fig-4-1"), "ch04:fig-4-1");
  EXPECT_EQ(latex_label("ch01:带宽"), "ch01:+e5+b8+a6+e5+ae+bd");
  EXPECT_NE(latex_label("a b"), latex_label("a_b"));
  EXPECT_EQ(latex_key("ch04", "sec:4.2"), "ch04:sec:4.2");
  EXPECT_EQ(latex_key("ch04", ""), "ch04");
}

TEST(LatexMath, PassesTexThroughAndMakesItSafe) {
  EXPECT_EQ(latex_math("\\frac{a}{b} \\% x"), "\\frac{a}{b} \\% x");
  EXPECT_EQ(latex_math("a % b"), "a \\% b");
  EXPECT_EQ(latex_math("a $ b"), "a \\$ b");
  EXPECT_EQ(latex_math("a\n\n  \nb"), "a\nb");
  EXPECT_EQ(latex_math("t_{读}"), "t_{\\text{读}}");
  EXPECT_EQ(latex_math("\\text{层数}\\times\\text{每层 容量}"), "\\text{层数}\\times\\text{每层 容量}");
  EXPECT_EQ(latex_math("\\mathrm{x}\\text{a{读}}"), "\\mathrm{x}\\text{a{读}}");
}

// What the numbering and cross-reference filters set (docs/pipeline.md) is what print shows.
// Column widths come from the longest unbreakable run of a cell: CJK breaks between characters,
// except before closing and after opening punctuation, which xeCJK keeps with their neighbour.
TEST(LatexTables, LongestRunKeepsPunctuationWithItsNeighbour) {
  EXPECT_EQ(cjk::longest_word("bandwidth 頻寬"), 9);
  EXPECT_EQ(cjk::longest_word("A 層：B"), 4);
  EXPECT_DOUBLE_EQ(cjk::longest_word("MLA：x"), 3 * 1.4 + 2);  // capitals are wider
  EXPECT_EQ(cjk::longest_word("（末端）"), 4);
  EXPECT_EQ(cjk::longest_word("頻寬"), 2);
  EXPECT_DOUBLE_EQ(cjk::display_width("頻寬 GB"), 4 + 1 + 2 * 1.4);
}

TEST(LatexWriter, UsesTheBooksOwnNumbersAndLabels) {
  Node root(Kind::Document);
  Node h(Kind::Heading, {"c.md", 1, 1});
  h.rare().level = 1;
  h.rare().number = "4";
  h.rare().id = "ch04";
  Node t(Kind::Text);
  t.text = "加速器架构";
  h.children.push_back(t);
  root.children.push_back(h);

  Node h2 = h;
  h2.rare().level = 2;
  h2.rare().number = "4.2";
  h2.rare().id = "sec-4-2";
  h2.loc.line = 3;
  root.children.push_back(h2);

  Node hand = h2;  // the corpus numbers by hand: "## 4.3 …" must not become "4.3 4.3 …"
  hand.rare().number = "4.3";
  hand.rare().id = "sec-4-3";
  hand.children[0].text = "4.3 手写编号";
  root.children.push_back(hand);

  Node fig(Kind::Figure, {"c.md", 5, 1});
  fig.rare().number = "4-1";
  fig.rare().id = "fig-4-1";
  fig.set_attr("label", "图 4-1");
  Node img(Kind::Image);
  img.rare().url = "img/a.svg";
  fig.children.push_back(img);
  Node cap(Kind::Text);
  cap.text = "说明";
  fig.rare().caption.push_back(cap);
  root.children.push_back(fig);

  Node eq(Kind::DisplayMath, {"c.md", 9, 1});
  eq.text = "E = mc^2";
  eq.rare().number = "4-1";
  eq.rare().id = "eq-4-1";
  root.children.push_back(eq);

  Node p(Kind::Paragraph, {"c.md", 12, 1});
  Node ref(Kind::CrossRef);
  ref.text = "图 4-5";
  ref.set_attr("chapter", "ch05");
  ref.set_attr("target", "fig-5-1");
  Node shown(Kind::Text);
  shown.text = "图 5-1";
  ref.children.push_back(shown);
  p.children.push_back(ref);
  Node link(Kind::Link);
  link.rare().url = "05-x.md#sec-5-2";
  link.set_attr("chapter", "ch05");
  link.set_attr("target", "sec-5-2");
  link.children.push_back(shown);
  p.children.push_back(link);
  root.children.push_back(p);

  LatexOptions o = fixture_options();
  o.chapter = "ch04";
  std::string tex = render_latex(root, o).tex;
  EXPECT_TRUE(has(
      tex, "\\bbchapter{\\texorpdfstring{第 4 章\\ 加速器架构}{第 4 章 加速器架构}}{第 4 章\\ 加速器架构}"))
      << tex;
  EXPECT_TRUE(has(tex, "\\label{ch04}\\label{ch04:ch04}")) << tex;
  EXPECT_TRUE(has(tex, "{4.2\\ 加速器架构}\\label{ch04:sec-4-2}")) << tex;
  EXPECT_TRUE(has(tex, "{4.3 手写编号}\\label{ch04:sec-4-3}")) << tex;
  EXPECT_FALSE(has(tex, "4.3 4.3")) << tex;
  EXPECT_TRUE(has(tex, "\\label{ch04:fig-4-1}")) << tex;
  EXPECT_TRUE(has(tex, "\\bbcaption{图 4-1}{说明}")) << tex;
  EXPECT_TRUE(has(
      tex, "\\begin{equation*}\n\\bbfitmath{E = mc^2}{}\n\\tag{4-1}\\label{ch04:eq-4-1}\n\\end{equation*}"))
      << tex;
  EXPECT_TRUE(has(tex, "\\hyperref[ch05:fig-5-1]{图 5-1}")) << tex;
  EXPECT_TRUE(has(tex, "\\hyperref[ch05:sec-5-2]{图 5-1}")) << tex;
}

// Issue 51: in the PDF a computed number broke from its unit ("252" / "tok/s"). Every space inside a
// computed number or a bound literal, plain or no-break, is a tie; the text around it keeps its spaces.
TEST(LatexWriter, ANumberAndItsUnitNeverPartAtALineBreak) {
  for (const std::string shown : {"252 tok/s", "3.4 TB/s", "15,26\u00A0ГиБ", "1 234 567 K"}) {
    Node root(Kind::Document);
    Node p(Kind::Paragraph, {"c.md", 1, 1});
    Node before(Kind::Text);
    before.text = "at ";
    p.children.push_back(before);
    Node calc(Kind::CalcNumber);
    calc.text = "decode.tokens_per_second";
    Node value(Kind::Text);
    value.text = shown;
    calc.children.push_back(value);
    p.children.push_back(calc);
    Node bound(Kind::Span);
    bound.set_attr("calc", "decode.tokens_per_second");
    bound.children.push_back(value);
    p.children.push_back(before);
    p.children.push_back(bound);
    root.children.push_back(p);
    std::string tied = escape_latex(shown);
    for (std::string_view space : {" ", "\u00A0"})
      for (auto at = tied.find(space); at != std::string::npos; at = tied.find(space))
        tied.replace(at, space.size(), "~");
    const std::string tex = render_latex(root, fixture_options()).tex;
    EXPECT_TRUE(has(tex, "at " + tied + "at " + tied)) << tex;
  }
}

// The zh chapter `init` writes ran 50 pt into the margin at `calculations/scenarios/book.json`: a
// path in inline code may now break after each slash (not after a closing one).
TEST(LatexWriter, APathInInlineCodeMayBreakAfterItsSlashes) {
  const std::string tex = render("来自 `calculations/scenarios/book.json` 与 `build/` 与 `a_b`。\n");
  EXPECT_TRUE(has(tex, "\\bbinlinecode{calculations/\\allowbreak{}scenarios/\\allowbreak{}book.json}"))
      << tex;
  EXPECT_TRUE(has(tex, "\\bbinlinecode{build/}")) << tex;
  EXPECT_TRUE(has(tex, "\\bbinlinecode{a\\_b}")) << tex;
}

TEST(LatexWriter, HandNumberedCaptionsUseTheEditionsWords) {
  std::string tex = render("![x](a.svg)\n\n*图 1-1　说明*\n");
  EXPECT_TRUE(has(tex, "\\bbcaption{图 1-1}{")) << tex;
}

TEST(LatexWriter, FootnotesKeepTheHtmlNumbersAndWorkInsideBoxes) {
  std::string tex =
      render("a[^x] b[^y] c[^x]\n\n> **例 1-1：x**\n>\n> d[^z]\n\n[^x]: X.\n\n[^y]: Y.\n\n[^z]: Z.\n");
  EXPECT_TRUE(has(tex, "\\footnote[1]{X.}")) << tex;
  EXPECT_TRUE(has(tex, "\\footnote[2]{Y.}")) << tex;
  EXPECT_TRUE(has(tex, "c\\bbfootref{1}")) << tex;
  // Inside the callout box the mark is printed, the text follows the box.
  EXPECT_TRUE(has(tex, "d\\footnotemark[3]")) << tex;
  EXPECT_TRUE(has(tex, "\\end{bbcallout}\n\\footnotetext[3]{Z.}")) << tex;
}

TEST(LatexWriter, SourceMapPointsBackToManuscriptLines) {
  Diagnostics d;
  auto root = markdown::parse("# T\n\nline three\n\n$$\n\\bad\n$$\n\n```\ncode\nmore\n```\n", "m.md", d);
  auto out = render_latex(root, fixture_options());
  // Find the output lines of some content and map them back.
  auto line_of = [&](const std::string& needle) {
    auto pos = out.tex.find(needle);
    EXPECT_NE(pos, std::string::npos) << needle;
    return 1 + static_cast<int>(std::count(out.tex.begin(), out.tex.begin() + static_cast<long>(pos), '\n'));
  };
  EXPECT_EQ(map_line(out.marks, line_of("line three")).line, 3);
  EXPECT_EQ(map_line(out.marks, line_of("\\bad")).line, 6);  // where the TeX starts
  EXPECT_EQ(map_line(out.marks, line_of("more")).line, 11);
  EXPECT_EQ(map_line(out.marks, line_of("more")).path, fs::path("m.md"));
}

}  // namespace
}  // namespace bb::writers
