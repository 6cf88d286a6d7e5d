// Front end: every fixture manuscript parses into the expected tree with the expected diagnostics.
#include <sstream>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "markdown/frontend.hpp"
#include "markdown/source_text.hpp"
#include "test_support.hpp"
#include "text/unicode.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

// The tree dump followed by every diagnostic, as one golden text per fixture.
std::string parse_and_describe(const fs::path& file) {
  Diagnostics diags;
  doc::Node root = markdown::parse(test::read_file(file), file.filename(), diags);
  std::string out = doc::dump(root);
  for (const auto& d : diags.all()) out += "diagnostic: " + format_diagnostic(d) + "\n";
  return out;
}

class FrontEndFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(FrontEndFixture, MatchesGolden) {
  fs::path md = test::fixtures() / "frontend" / (GetParam() + ".md");
  test::expect_golden(md.parent_path() / (GetParam() + ".tree"), parse_and_describe(md));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FrontEndFixture,
                         ::testing::Values("math", "figures", "callouts", "attributes", "footnotes", "errors",
                                           "gfm", "pandoc"));

doc::Node parse(const std::string& src, Diagnostics& d) {
  return markdown::parse(src, "t.md", d);
}

const doc::Node* find(const doc::Node& root, doc::Kind k) {
  const doc::Node* hit = nullptr;
  doc::walk(root, [&](const doc::Node& n) {
    if (!hit && n.kind == k) hit = &n;
  });
  return hit;
}

TEST(FrontEnd, MathKeepsMarkdownCharactersVerbatim) {
  Diagnostics d;
  auto root = parse("A $x_1 * y_2 \\_ z$ b.\n", d);
  const auto* m = find(root, doc::Kind::InlineMath);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->text, "x_1 * y_2 \\_ z");
  EXPECT_FALSE(d.has_errors());
}

TEST(FrontEnd, DollarAmountsAreNotMath) {
  Diagnostics d;
  auto root = parse("It costs $5 or $10 today.\n", d);
  EXPECT_EQ(find(root, doc::Kind::InlineMath), nullptr);
  EXPECT_EQ(doc::plain_text(root.children.front()), "It costs $5 or $10 today.");
}

TEST(FrontEnd, DisplayMathLinesThatLookLikeListsStayMath) {
  Diagnostics d;
  auto root = parse("$$\na\n- b\n+ c\n1. d\n$$\n", d);
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(root.children[0].kind, doc::Kind::DisplayMath);
  EXPECT_EQ(root.children[0].text, "a\n- b\n+ c\n1. d");
  EXPECT_EQ(root.children[0].loc.line, 2);  // the TeX starts after the opening `$$`
}

TEST(FrontEnd, UnclosedDisplayMathIsAnErrorAtItsLine) {
  Diagnostics d;
  parse("text\n\n$$\nx\n", d);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 3);
}

TEST(FrontEnd, ItalicCaptionAfterImageBecomesFigureCaption) {
  Diagnostics d;
  auto root = parse("![alt](a.svg)\n\n*图 4-1　说明文字*\n", d);
  ASSERT_EQ(root.children.size(), 1u);
  const auto& fig = root.children[0];
  ASSERT_EQ(fig.kind, doc::Kind::Figure);
  ASSERT_NE(fig.attr("hand-number"), nullptr);
  EXPECT_EQ(*fig.attr("hand-number"), "4-1");
  EXPECT_EQ(doc::plain_text(fig.caption()), "说明文字");
}

TEST(FrontEnd, InvalidUtf8IsReportedWithItsPlace) {
  Diagnostics d;
  parse("ok\nab\xff\xfe\n", d);
  ASSERT_GE(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 2);
  EXPECT_EQ(d.all()[0].loc.col, 3);
}

TEST(FrontEnd, FootnotesKeepTheirKeysAndCountReferences) {
  Diagnostics d;
  auto root = parse("x[^k] y[^k]\n\n[^k]: note\n", d);
  int refs = 0;
  doc::walk(root, [&](const doc::Node& n) {
    if (n.kind == doc::Kind::FootnoteRef) {
      ++refs;
      EXPECT_EQ(n.text, "k");
    }
  });
  EXPECT_EQ(refs, 2);
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(HandNumber, SplitsWordNumberAndSeparator) {
  std::string_view rest;
  EXPECT_EQ(markdown::split_hand_number("图 4-10：标题", {"图"}, rest), "4-10");
  EXPECT_EQ(rest, "标题");
  EXPECT_EQ(markdown::split_hand_number("Figure 4-1 Caption", {"Figure"}, rest), "4-1");
  EXPECT_EQ(rest, "Caption");
  EXPECT_EQ(markdown::split_hand_number("Рис. 12-3. Подпись", {"Рис."}, rest), "12-3");
  EXPECT_EQ(rest, "Подпись");
  EXPECT_EQ(markdown::split_hand_number("图 4 不是编号", {"图"}, rest), "");
  EXPECT_EQ(markdown::split_hand_number("Figures 4-1", {"Table"}, rest), "");
}

// The encoding check accepts exactly what ICU's decoder accepts, and replaces the rest one byte at a
// time with U+FFFD and an error: every lead byte with every second byte and a few third and fourth
// bytes (in range, out of range, ASCII), between ASCII letters, against the decoder itself.
TEST(SourceText, AcceptsExactlyWhatTheUtf8DecoderAccepts) {
  auto reference = [](std::string_view in, int& errors) {
    std::string out;
    for (std::size_t i = 0; i < in.size();) {
      std::size_t n = 1;
      const auto c = static_cast<unsigned char>(in[i]);
      if (c >= 0x80 && text::decode_utf8(in, i, n) == 0xFFFD && n == 1) {
        out += "\xEF\xBF\xBD";
        ++errors;
        ++i;
        continue;
      }
      out.append(in.substr(i, n));
      i += n;
    }
    return out;
  };
  int checked = 0;
  for (unsigned lead = 0x80; lead <= 0xFF; ++lead)
    for (unsigned second = 1; second <= 0xFF; ++second)
      for (unsigned third : {0x80u, 0xBFu, 0x41u})
        for (unsigned fourth : {0x80u, 0x41u}) {
          std::string in = "a";
          for (unsigned b : {lead, second, third, fourth}) in += static_cast<char>(b);
          in += "z";
          int want_errors = 0;
          const std::string want = reference(in, want_errors);
          Diagnostics diags;
          auto got = markdown::checked_utf8(in, "x.md", diags);
          ASSERT_TRUE(got.has_value());
          ASSERT_EQ(*got, want) << std::hex << lead << " " << second << " " << third << " " << fourth;
          ASSERT_EQ(diags.error_count(), static_cast<std::size_t>(want_errors))
              << std::hex << lead << " " << second;
          ++checked;
        }
  EXPECT_EQ(checked, 128 * 255 * 6);
  // A U+FFFD written in the file is text, and an error names its line and column.
  Diagnostics diags;
  EXPECT_EQ(*markdown::checked_utf8("a\xEF\xBF\xBD", "x.md", diags), "a\xEF\xBF\xBD");
  EXPECT_EQ(diags.error_count(), 0u);
  EXPECT_EQ(*markdown::checked_utf8("ab\n\ncd\xC0"
                                    "ef\n\xFF",
                                    "x.md", diags),
            "ab\n\ncd\xEF\xBF\xBD"
            "ef\n\xEF\xBF\xBD");
  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_EQ(diags.all()[0].loc.line, 3);
  EXPECT_EQ(diags.all()[0].loc.col, 3);
  EXPECT_EQ(diags.all()[1].loc.line, 4);
  EXPECT_EQ(diags.all()[1].loc.col, 1);
}

}  // namespace
}  // namespace bb
