// The syntax authors write (issue 51): what other tools read and bookbuild does not is a warning at its
// place; a phrase marked `.noref` is not read as a reference.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "diag/diagnostics.hpp"
#include "markdown/frontend.hpp"
#include "new_book.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::NewBook;

// Issue 51: what authors write in Pandoc and GitHub Markdown was printed as literal text, silently.
TEST(Messages, SyntaxOfOtherToolsIsAWarningAtItsPlace) {
  const std::string md =
      "Seen in [@smith2020] and water is H~2~O.\n"                                // 1
      "\n"                                                                        // 2
      "> [!NOTE]\n"                                                               // 3
      "> Useful.\n"                                                               // 4
      "\n"                                                                        // 5
      "::: warning\n"                                                             // 6
      "Careful.\n"                                                                // 7
      ":::\n"                                                                     // 8
      "\n"                                                                        // 9
      "A claim.^[An inline note.]\n"                                              // 10
      "\n"                                                                        // 11
      "Term\n"                                                                    // 12
      ": its definition\n"                                                        // 13
      "\n"                                                                        // 14
      "Fine: @fig:x, [@tbl:y], ~~gone~~, `[@code] ^[x]`, $a^[b]$ and ~/home.\n";  // 15
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
  EXPECT_TRUE(find("c.md:1:36: warning: `~2~` with single tildes")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:3:3: warning: GitHub alert `[!NOTE]`")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:6:1: warning: fenced div `::: warning`")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:10:9: warning: inline note")) << testing::PrintToString(got);
  EXPECT_TRUE(find("c.md:13:1: warning: definition lists")) << testing::PrintToString(got);
  for (const auto& g : got) EXPECT_FALSE(g.starts_with("c.md:15:")) << g;
  EXPECT_EQ(got.size(), 6u) << testing::PrintToString(got);
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
