// The syntax authors write (issue 51): what Pandoc and GitHub read is read here too (callouts, inline
// notes, sub- and superscripts, definition lists, code languages), what is not is a warning at its
// place; a phrase marked `.noref` is not read as a reference.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "highlight/highlight.hpp"
#include "markdown/frontend.hpp"
#include "new_book.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::NewBook;

// Issue 51: what authors write in Pandoc and GitHub Markdown was printed as literal text, silently. What
// bookbuild reads now gives no warning; what it still does not is a warning at its place.
TEST(Messages, SyntaxOfOtherToolsIsReadOrAWarningAtItsPlace) {
  const std::string md =
      "Seen in [@smith2020] and water is H~2~O.\n"                               // 1
      "\n"                                                                       // 2
      "> [!NOTE]\n"                                                              // 3
      "> Useful.\n"                                                              // 4
      "\n"                                                                       // 5
      "::: warning\n"                                                            // 6
      "Careful.\n"                                                               // 7
      ":::\n"                                                                    // 8
      "\n"                                                                       // 9
      "A claim.^[An inline note.]\n"                                             // 10
      "\n"                                                                       // 11
      "Term\n"                                                                   // 12
      ": its definition\n"                                                       // 13
      "\n"                                                                       // 14
      "Fine: @fig:x, [@tbl:y], ~~gone~~, `[@code] ^[x]`, $a^[b]$ and ~/home.\n"  // 15
      "\n"                                                                       // 16
      "A term\n"                                                                 // 17
      "of two lines\n"                                                           // 18
      ": is no term.\n"                                                          // 19
      "\n"                                                                       // 20
      "Struck ~a b~ and an open note^[ never closed.\n";                         // 21
  Diagnostics d;
  markdown::parse(md, "c.md", d);
  std::vector<std::string> got;
  for (const auto& x : d.all()) got.push_back(format_diagnostic(x));
  auto find = [&](const std::string& start) {
    for (const auto& g : got)
      if (g.starts_with(start)) return true;
    return false;
  };
  EXPECT_TRUE(find("c.md:1:9: warning: citation `[@smith2020]`")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:19:1: warning: a definition list's term is one line"))
      << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:21:8: warning: `~a b~`")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:21:30: warning: inline note `^[` is never closed")) << testing::PrintToString(got);
  EXPECT_EQ(got.size(), 4u) << testing::PrintToString(got);
}

// Each construct of issue 51 in the tree every writer renders: a user sees a callout, a footnote, a
// subscript, a definition list, never the characters they typed.
TEST(Syntax, PandocAndGithubConstructsBecomeTheirElements) {
  const std::string md =
      "> [!CAUTION]\n> Hot.\n\n"
      "::: {.tip}\nA tip.\n:::\n\n"
      "A claim.^[Note *one*.]\n\n"
      "H~2~O and x^2^ and ~~old~~.\n\n"
      "Term\n:   Meaning.\n";
  Diagnostics d;
  auto root = markdown::parse(md, "c.md", d);
  EXPECT_TRUE(d.all().empty()) << d.all().size();
  std::map<doc::Kind, int> kinds;
  std::vector<std::string> callouts;
  std::string text;
  doc::walk(root, [&](const doc::Node& n) {
    ++kinds[n.kind];
    if (n.kind == doc::Kind::Callout) callouts.push_back(*n.attr("kind"));
    if (n.kind == doc::Kind::Text) text += n.text + "|";
  });
  EXPECT_EQ(callouts, (std::vector<std::string>{"caution", "tip"}));
  EXPECT_EQ(kinds[doc::Kind::FootnoteRef], 1);
  EXPECT_EQ(kinds[doc::Kind::FootnoteDef], 1);
  EXPECT_EQ(kinds[doc::Kind::Subscript], 1);
  EXPECT_EQ(kinds[doc::Kind::Superscript], 1);
  EXPECT_EQ(kinds[doc::Kind::Strike], 1);
  EXPECT_EQ(kinds[doc::Kind::DefinitionList], 1);
  EXPECT_EQ(kinds[doc::Kind::DefinitionTerm], 1);
  EXPECT_EQ(kinds[doc::Kind::DefinitionDetails], 1);
  // None of the markers the author typed is left as text.
  for (const char* marker : {"[!", ":::", "^[", "~", "^", ":   "})
    EXPECT_EQ(text.find(marker), std::string::npos) << marker << " in " << text;
}

// Untitled alerts are titled in the edition's language, in the site as in every output.
TEST(Syntax, AnUntitledAlertIsTitledInTheEditionsLanguage) {
  NewBook b("en,zh");
  b.replace("manuscripts/01-first-steps.md", "## Code {#sec:code}",
            "> [!WARNING]\n> Hot.\n\n## Code {#sec:code}");
  b.replace("book-zh/01-起步.md", "{#sec:code}", "{#sec:code}\n\n> [!WARNING]\n> 烫。\n");
  auto r = b.run("site");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string en = test::read_file(b.dir.path / "out/site/ch01.html");
  const std::string zh = test::read_file(b.dir.path / "out/site/zh/ch01.html");
  EXPECT_TRUE(
      has(en, "<aside class=\"callout callout-warning\" role=\"note\">\n<p><strong>Warning</strong></p>"))
      << en;
  EXPECT_TRUE(
      has(zh, "<aside class=\"callout callout-warning\" role=\"note\">\n<p><strong>警告</strong></p>"))
      << zh;
}

// A `cuda` block is highlighted as C++; a language the highlighter does not know is a warning at its
// fence, not a silently plain block.
TEST(Syntax, CodeInAnUnknownLanguageIsAWarningAtItsFence) {
  Diagnostics d;
  markdown::parse("```cuda\n__global__ void k();\n```\n\n```text\nplain\n```\n\n```nosuchlang\nx\n```\n",
                  "c.md", d);
  std::vector<std::string> got;
  for (const auto& x : d.all()) got.push_back(format_diagnostic(x));
  ASSERT_EQ(got.size(), 1u) << testing::PrintToString(got);
  EXPECT_TRUE(got[0].starts_with("c.md:9:1: warning: code in `nosuchlang` is not highlighted")) << got[0];
  auto tokens = highlight::tokens("cuda", "__global__ void k();\n");
  ASSERT_TRUE(tokens.has_value());
  bool keyword = false;
  for (const auto& t : *tokens) keyword = keyword || (t.text == "void" && !t.kind.empty());
  EXPECT_TRUE(keyword);
}

// Issue 51: "Table 2-7 of the CUDA guide" was an error with no way out short of a book-wide policy.
TEST(References, APhraseMarkedNorefIsNotReadAsAReference) {
  NewBook b;
  b.replace("manuscripts/01-first-steps.md", "@tbl:outputs lists",
            "[Table 1-7]{.noref} of the CUDA guide is not ours; Table 1-8 is not either. @tbl:outputs lists");
  auto r = b.run("check refs");
  EXPECT_TRUE(has(r.err, "`Table 1-8` names no table 1-8")) << r.err;
  EXPECT_FALSE(has(r.err, "`Table 1-7`")) << r.err;
  b.replace("manuscripts/01-first-steps.md", " Table 1-8 is not either.", "");
  r = b.run("check --strict");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace bb
