// Output people read (issue 46 item 5): `-q` prints each problem on one line with its kind; the
// summary counts the problems by kind; `--max-warnings N` fails a run past N warnings; and what
// changed between two runs' diagnostics (what `site --serve` prints after a save) pairs a problem
// that only moved with itself.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "diag/changes.hpp"
#include "new_book.hpp"

namespace bb {
namespace {

using test::has;
using test::NewBook;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A new book with problems of several kinds: links to files that do not exist, an image that is a
// Git LFS pointer, an SVG that shows an image from outside the book (both refused: errors).
void add_problems(const NewBook& b, bool errors) {
  std::string text = "\n\nSee [a](missing-a.py), [b](../missing-b.txt) and [c](nowhere/c.md).\n";
  if (errors) {
    test::write_file(b.root / "manuscripts/img/pointer.png",
                     "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 12\n");
    test::write_file(b.root / "manuscripts/img/evil.svg",
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"
                     "<image xlink:href=\"/etc/hosts\"/></svg>\n");
    text += "\n![Pointer.](img/pointer.png)\n\n![Evil.](img/evil.svg)\n";
  }
  test::write_file(b.root / "manuscripts/01-first-steps.md",
                   test::read_file(b.root / "manuscripts/01-first-steps.md") + text);
}

// The report is ordered by file (as paths order: `a/x.md` before `a-b/x.md`, which a string
// comparison would put after), then line and column, in the order found at the same place; the same
// message at the same place once.
TEST(DiagnosticOrder, ByPathLineAndColumnStableAndOnce) {
  Diagnostics d;
  d.warning({"a-b/x.md", 1, 1}, "w1");
  d.warning({"a/x.md", 9, 2}, "w2");
  d.error({"a/x.md", 9, 1}, "e1");
  d.warning({"a/x.md", 9, 2}, "w3");
  d.warning({"a/x.md", 9, 2}, "w2");
  d.note({"", 0, 0}, "n1");
  d.warning({"b.md", 2, 5}, "w4");
  std::vector<std::string> got;
  for (const auto& x : d.all()) got.push_back(x.loc.path.generic_string() + " " + x.message);
  EXPECT_EQ(got, (std::vector<std::string>{" n1", "a/x.md e1", "a/x.md w2", "a/x.md w3", "a-b/x.md w1",
                                           "b.md w4"}));
}

TEST(Report, QuietPrintsEachProblemOnOneLineWithItsKindAndTheSummaryCountsThem) {
  const NewBook b;
  add_problems(b, true);
  const auto r = b.run("-q check");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  static const std::regex one_line(R"(^\S+:\d+:\d+: (error|warning|note): .* \[([a-z-]+)\]$)");
  static const std::regex summary(R"(^\d+ errors?, \d+ warnings?$)"), by_kind(R"(^  (errors|warnings): .*$)");
  std::map<std::string, std::map<std::string, int>> counted;  // severity → kind → lines
  for (const auto& line : lines_of(r.err)) {
    std::smatch m;
    if (std::regex_match(line, m, one_line)) {
      ++counted[m[1].str() + "s"][m[2].str()];
      continue;
    }
    // Nothing else: no quoted source line, no caret.
    EXPECT_TRUE(std::regex_match(line, summary) || std::regex_match(line, by_kind)) << "`" << line << "`\n"
                                                                                    << r.err;
  }
  EXPECT_EQ(counted["warnings"]["link-target"], 3) << r.err;
  EXPECT_EQ(counted["errors"]["lfs-pointer"], 1) << r.err;
  EXPECT_EQ(counted["errors"]["svg"], 1) << r.err;
  // The summary's counts by kind are those of the lines, most frequent first.
  for (const auto& [severity, kinds] : counted) {
    if (severity == "notes") continue;
    std::string expected = "  " + severity + ":";
    std::vector<std::pair<std::string, int>> sorted(kinds.begin(), kinds.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& x, const auto& y) { return x.second > y.second; });
    for (std::size_t i = 0; i < sorted.size(); ++i)
      expected += (i ? ", " : " ") + std::to_string(sorted[i].second) + " " + sorted[i].first;
    EXPECT_TRUE(has(r.err, expected + "\n")) << expected << "\n" << r.err;
  }
}

TEST(Report, MaxWarningsFailsARunPastItsCount) {
  const NewBook b;
  add_problems(b, false);
  const auto all = b.run("-q check");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  int warnings = 0;
  for (const auto& line : lines_of(all.err)) warnings += has(line, ": warning: ");
  ASSERT_GE(warnings, 3) << all.err;
  const auto at = b.run("-q --max-warnings " + std::to_string(warnings) + " check");
  EXPECT_EQ(at.exit_code, 0) << at.err;
  const auto past = b.run("-q --max-warnings " + std::to_string(warnings - 1) + " check");
  EXPECT_EQ(past.exit_code, 1) << past.err;
  EXPECT_TRUE(has(past.err, "bookbuild: error: " + std::to_string(warnings) +
                                " warnings, more than --max-warnings " + std::to_string(warnings - 1)))
      << past.err;
  EXPECT_FALSE(has(past.err, "no errors")) << past.err;
  // Without warnings, no limit fails: a new book has none.
  const NewBook clean;
  EXPECT_EQ(clean.run("-q --max-warnings 0 check").exit_code, 0);
}

Diagnostic warning(const char* file, int line, const std::string& message, const char* kind = "link-target") {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.loc = {file, line, 1};
  d.message = message;
  d.kind = kind;
  return d;
}

TEST(DiagnosticChanges, AProblemThatMovedIsNeitherNewNorGone) {
  const std::vector<Diagnostic> before = {warning("a.md", 10, "x"), warning("a.md", 20, "y"),
                                          warning("a.md", 30, "y"), warning("b.md", 5, "z")};
  // Two lines added at the top of a.md: every problem there moved; y at 30 was fixed; w is new.
  const std::vector<Diagnostic> after = {warning("a.md", 12, "x"), warning("a.md", 22, "y"),
                                         warning("a.md", 40, "w"), warning("b.md", 5, "z")};
  const auto changes = diagnostic_changes(before, after);
  ASSERT_EQ(changes.added.size(), 1u);
  EXPECT_EQ(changes.added[0].message, "w");
  ASSERT_EQ(changes.gone.size(), 1u);
  EXPECT_EQ(changes.gone[0].message, "y");
  // The same message in another file, or of another kind, is another problem.
  const auto moved = diagnostic_changes({warning("a.md", 1, "x")}, {warning("c.md", 1, "x")});
  EXPECT_EQ(moved.added.size(), 1u);
  EXPECT_EQ(moved.gone.size(), 1u);
  EXPECT_EQ(diagnostic_changes({warning("a.md", 1, "x")}, {warning("a.md", 1, "x", "svg")}).added.size(), 1u);
  EXPECT_TRUE(diagnostic_changes(after, after).empty());
}

TEST(DiagnosticChanges, PrintsTheNewTheGoneAndTheCountsOrNothing) {
  const std::vector<Diagnostic> before = {warning("a.md", 10, "old one")};
  const std::vector<Diagnostic> after = {warning("a.md", 11, "new one")};
  std::ostringstream out;
  print_changes(out, diagnostic_changes(before, after), after, {}, PrintStyle::OneLine);
  EXPECT_EQ(out.str(),
            "a.md:11:1: warning: new one [link-target]\n"
            "gone: a.md:10:1: warning: old one [link-target]\n"
            "1 new, 1 gone; 0 errors, 1 warning in all\n");
  std::ostringstream none;
  print_changes(none, diagnostic_changes(after, after), after, {}, PrintStyle::OneLine);
  EXPECT_EQ(none.str(), "");
}

}  // namespace
}  // namespace bb
