// The size limits of a manuscript (markdown/size_limits.hpp) and how diagnostics show long lines:
// an oversized input fails with one located error, quickly and without reading or printing it whole,
// and cmark-gfm's parse stays within its memory budget (markdown/parse_memory.hpp).
#include <cmark-gfm.h>

#include <set>
#include <sstream>

#include "diag/diagnostics.hpp"
#include "markdown/frontend.hpp"
#include "markdown/parse_memory.hpp"
#include "markdown/size_limits.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

std::string messages(const Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.all()) out += d.message + "\n";
  return out;
}

TEST(SizeLimits, AFileOverTheLimitIsAnErrorAndNotParsed) {
  test::TempDir dir;
  const auto file = dir.path / "big.md";
  test::write_file(file, "# Chapter 1 Big\n\n" + std::string(markdown::kMaxFileBytes, 'x') + "\n");
  Diagnostics diags;
  doc::Node doc = markdown::parse_file(file, diags);
  EXPECT_TRUE(doc.children.empty());
  ASSERT_EQ(diags.error_count(), 1u) << messages(diags);
  EXPECT_EQ(diags.all()[0].loc.line, 1);
  EXPECT_NE(messages(diags).find("a manuscript may be at most 8 MiB"), std::string::npos) << messages(diags);
}

TEST(SizeLimits, TooManyElementsIsAnErrorAtTheFile) {
  std::string source = "# Chapter 1 Many\n\n";
  // "*a* " makes an emphasis, its text and a space: 3 elements per 4 bytes, over 24,000 + bytes / 64.
  for (std::size_t i = 0; i < markdown::kBaseElements / 2; ++i) source += "*a* ";
  Diagnostics diags;
  doc::Node doc = markdown::parse(source, "many.md", diags);
  EXPECT_TRUE(doc.children.empty());
  ASSERT_EQ(diags.error_count(), 1u) << messages(diags);
  EXPECT_EQ(diags.all()[0].loc.line, 1);
  EXPECT_NE(messages(diags).find(std::to_string(markdown::element_limit(source.size())) + " elements"),
            std::string::npos)
      << messages(diags);
}

TEST(SizeLimits, AFileFarOverTheElementLimitStopsParsingAtItsBudget) {
  // 600,000 elements in 800 KB: cmark-gfm's whole tree would take ~150 MB; the parse stops at its
  // budget and says so.
  std::string source = "# Chapter 1 Dense\n\n";
  for (int i = 0; i < 200'000; ++i) source += "*a* ";
  Diagnostics diags;
  doc::Node doc = markdown::parse(source, "dense.md", diags);
  EXPECT_TRUE(doc.children.empty());
  ASSERT_EQ(diags.error_count(), 1u) << messages(diags);
  EXPECT_NE(messages(diags).find("more than " + std::to_string(markdown::element_limit(source.size()))),
            std::string::npos)
      << messages(diags);
  EXPECT_NE(messages(diags).find("parsing stopped at"), std::string::npos) << messages(diags);
  // The next parse (the process-wide table of special characters restored) reads math, strikethrough
  // and emphasis as before.
  Diagnostics after;
  doc::Node ok = markdown::parse("# Chapter 1 Fine\n\n*a* ~~b~~ $x^2$ www.example.com\n", "ok.md", after);
  EXPECT_FALSE(after.has_errors()) << messages(after);
  std::set<doc::Kind> kinds;
  doc::walk(ok, [&](const doc::Node& n) { kinds.insert(n.kind); });
  EXPECT_TRUE(kinds.count(doc::Kind::Emph));
  EXPECT_TRUE(kinds.count(doc::Kind::Strike));
  EXPECT_TRUE(kinds.count(doc::Kind::InlineMath));
  EXPECT_TRUE(kinds.count(doc::Kind::Link));
}

TEST(SizeLimits, ABudgetedParseFitsItsBudgetAndFreesEverything) {
  std::string dense;
  for (int i = 0; i < 100'000; ++i) dense += "*a* ";
  const std::size_t budget = 2u << 20;
  {
    markdown::ParseMemory memory(budget);
    cmark_parser* parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, memory.mem());
    EXPECT_EQ(memory.parse(parser, dense), nullptr);
    EXPECT_LE(memory.peak(), budget);
  }  // LeakSanitizer (the ASan build of the tests) reports any block not freed here
  markdown::ParseMemory memory(budget);
  cmark_parser* parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, memory.mem());
  cmark_node* root = memory.parse(parser, "Some *emphasis* and `code`.\n");
  ASSERT_NE(root, nullptr);
  ASSERT_NE(cmark_node_first_child(root), nullptr);
  EXPECT_EQ(cmark_node_get_type(cmark_node_first_child(root)), CMARK_NODE_PARAGRAPH);
  EXPECT_GT(memory.peak(), 0u);
}

TEST(SizeLimits, TheElementLimitLeavesRoomForRealChapters) {
  // The densest chapter of the real book: 3,489 elements in 148,948 bytes, under a seventh of its limit.
  EXPECT_GT(markdown::element_limit(148'948), 7u * 3'489);
}

TEST(SizeLimits, ATableJustWithinTheLimitParses) {
  // 100 columns × (1 header + 98 rows) = 9,900 cells.
  std::string row = "|";
  for (int c = 0; c < 100; ++c) row += " 1 |";
  std::string source = "# Chapter 1 Table\n\n" + row + "\n|";
  for (int c = 0; c < 100; ++c) source += "---|";
  source += "\n";
  for (int r = 0; r < 98; ++r) source += row + "\n";
  Diagnostics diags;
  doc::Node doc = markdown::parse(source, "table.md", diags);
  EXPECT_FALSE(diags.has_errors()) << messages(diags);
  bool table = false;
  doc::walk(doc, [&](const doc::Node& n) { table = table || n.kind == doc::Kind::Table; });
  EXPECT_TRUE(table);
}

TEST(SizeLimits, PipeLinesInACodeBlockAreNotATable) {
  // 20,000 pipe-separated lines after a delimiter row, inside a fenced block: code, not cells.
  std::string source = "# Chapter 1 Code\n\n````text\n| a | b |\n|---|---|\n";
  for (int r = 0; r < 20'000; ++r) source += "| 1 | 2 |\n";
  source += "```\nstill code: the fence closes only with four backticks\n````\n\nAfter.\n";
  Diagnostics diags;
  doc::Node doc = markdown::parse(source, "code.md", diags);
  EXPECT_FALSE(diags.has_errors()) << messages(diags);
  bool code = false;
  doc::walk(doc, [&](const doc::Node& n) { code = code || n.kind == doc::Kind::CodeBlock; });
  EXPECT_TRUE(code);
  // The same rows outside the block are a table over the limit.
  std::string table = "# Chapter 1 Table\n\n| a | b |\n|---|---|\n";
  for (int r = 0; r < 5'001; ++r) table += "| 1 | 2 |\n";
  Diagnostics over;
  markdown::parse(table, "table.md", over);
  ASSERT_EQ(over.error_count(), 1u) << messages(over);
  EXPECT_EQ(over.all()[0].loc.line, 3);
}

TEST(DiagnosticPrinting, ALongLineIsShownAsAWindowAroundTheColumn) {
  test::TempDir dir;
  const auto file = dir.path / "long.md";
  std::string line;
  for (int i = 0; i < 20000; ++i) line += "词 ";
  const int col = static_cast<int>(line.size()) + 1;
  line += "HERE";
  for (int i = 0; i < 20000; ++i) line += " word";
  test::write_file(file, "# Title\n" + line + "\n");
  Diagnostics diags;
  diags.error({file, 2, col}, "something at HERE");
  std::ostringstream out;
  diags.print(out);
  const std::string printed = out.str();
  EXPECT_LT(printed.size(), 1000u) << "the whole line was printed";
  // The caret stands under HERE: the source line and the caret line, two-column CJK counted.
  std::istringstream lines(printed);
  std::string first, source, caret;
  std::getline(lines, first);
  std::getline(lines, source);
  std::getline(lines, caret);
  EXPECT_EQ(source.front(), ' ');
  EXPECT_NE(source.find("…"), std::string::npos);
  const auto here = source.find("HERE");
  ASSERT_NE(here, std::string::npos);
  // Columns before HERE on screen: "  …" is 3 cells, then each "词 " is 3 cells in 4 bytes.
  std::size_t cells = 0;
  for (std::size_t i = 0; i < here;) {
    std::size_t next = i;
    const char32_t c =
        static_cast<unsigned char>(source[i]) < 0x80 ? static_cast<unsigned char>(source[next++]) : U'\uFFFD';
    if (c == U'\uFFFD') {
      next = i + 1;
      while (next < source.size() && (static_cast<unsigned char>(source[next]) & 0xC0) == 0x80) ++next;
      cells += source.compare(i, next - i, "词") == 0 ? 2 : 1;
    } else {
      cells += 1;
    }
    i = next;
  }
  EXPECT_EQ(caret.find('^'), cells);
}

}  // namespace
}  // namespace bb
