// Book filters as data: every cases/NAME.lua over cases/NAME.md against cases/NAME.out (the tree
// the filter leaves, then every diagnostic). The first line of a case's filter may name the output
// format as `-- FORMAT: latex`.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "bookfilters/book_filters.hpp"
#include "markdown/frontend.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
const fs::path kCases = BOOKFILTERS_CASES;

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kCases))
    if (e.path().extension() == ".lua") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// What a case's filter may look up: one label and one calc expression.
bookfilters::Lookups lookups() {
  bookfilters::Lookups l;
  l.label = [](const std::string& name) -> std::optional<bookfilters::LabelInfo> {
    if (name != "sec:kv") return std::nullopt;
    return bookfilters::LabelInfo{"section", "ch02", "sec-2-3", "2.3", "The KV cache"};
  };
  l.calc = [](const std::string& expr, std::string&) -> std::optional<bookfilters::CalcValue> {
    if (expr == "answer") return bookfilters::CalcValue{true, 42, 0};
    throw std::runtime_error("unknown scenario `" + expr + "`");
  };
  return l;
}

std::string run_case(const std::string& name) {
  const fs::path lua = kCases / (name + ".lua");
  const fs::path md = kCases / (name + ".md");
  Diagnostics diags;
  book::Chapter chapter{"ch01", 1, md, markdown::parse(test::read_file(md), md.filename(), diags), "Case"};
  book::Edition edition;
  edition.id = "en";
  edition.lang = "en";
  bookfilters::Program program;
  program.entry.name = "filters/" + name + ".lua";
  program.entry.path = lua;
  program.code = test::read_file(lua);
  std::string format = "html";
  if (program.code.rfind("-- FORMAT: ", 0) == 0)
    format = program.code.substr(11, program.code.find('\n') - 11);
  program.entry.formats = {format};
  bookfilters::Place place{format, &edition, &chapter, kCases, book::FilterEntry::Stage::Resolved};
  // Small limits, so that the hostile cases end within a fraction of a second (two for CPU time).
  bookfilters::Limits limits;
  limits.memory = 16u << 20;
  limits.instructions = 20'000'000;
  limits.cpu_ms = 2'000;
  bookfilters::run_filters({program}, chapter, place, lookups(), diags, limits);
  std::ostringstream out;
  out << doc::dump(chapter.root);
  diags.print(out, kCases);
  return out.str();
}

class BookFilterCase : public ::testing::TestWithParam<std::string> {};

TEST_P(BookFilterCase, LeavesTheExpectedTreeAndDiagnostics) {
  const auto start = std::chrono::steady_clock::now();
  test::expect_golden(kCases / (GetParam() + ".out"), run_case(GetParam()));
  // Nothing a filter does outlasts its budget (two seconds of CPU time here) by much: a hostile case
  // that hangs fails here rather than at CTest's timeout. (Generous: ASan, a loaded machine.)
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

INSTANTIATE_TEST_SUITE_P(Cases, BookFilterCase, ::testing::ValuesIn(case_names()), [](const auto& info) {
  std::string n = info.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
});

// A filter that is not in the list of the output being built does not run.
TEST(BookFilters, RunOnlyForTheirOutputsAndEditions) {
  Diagnostics diags;
  book::Chapter chapter{"ch01", 1, "x.md", markdown::parse("word\n", "x.md", diags), "X"};
  book::Edition edition;
  edition.id = "en";
  bookfilters::Program program;
  program.entry.name = "filters/x.lua";
  program.code = "function Str(s) return pandoc.Str('changed') end";
  bookfilters::Place place{"html", &edition, &chapter, ".", book::FilterEntry::Stage::Resolved};
  program.entry.formats = {"latex"};
  bookfilters::run_filters({program}, chapter, place, {}, diags);
  EXPECT_EQ(doc::plain_text(chapter.root), "word");
  program.entry.formats = {};
  program.entry.editions = {"ru"};
  bookfilters::run_filters({program}, chapter, place, {}, diags);
  EXPECT_EQ(doc::plain_text(chapter.root), "word");
  program.entry.editions = {"en"};
  bookfilters::run_filters({program}, chapter, place, {}, diags);
  EXPECT_EQ(doc::plain_text(chapter.root), "changed");
  EXPECT_FALSE(diags.has_errors());
}

// A filter's state is kept from chapter to chapter (one per filter and thread), but each chapter runs
// in fresh globals: what a chapter's run leaves in a global, in a library table or in the prelude's
// tables is not seen by the next chapter, which sees the filter as a fresh state would.
TEST(BookFilters, NothingLeaksFromOneChapterToTheNext) {
  Diagnostics diags;
  book::Edition edition;
  edition.id = "en";
  bookfilters::Program program;
  program.entry.name = "filters/leak.lua";
  program.code = R"(
    local marks = (seen and "global " or "") .. (string.seen and "string " or "") ..
                  (pandoc.seen and "pandoc " or "") .. (("").seen and "method " or "")
    seen, string.seen, pandoc.seen = true, true, true
    pcall(function() getmetatable("").__index.seen = true end)
    function Str(s) return pandoc.Str(marks .. "clean") end
  )";
  for (int i = 0; i < 3; ++i) {
    book::Chapter chapter{"ch0" + std::to_string(i), i, "x.md", markdown::parse("word\n", "x.md", diags),
                          "X"};
    bookfilters::Place place{"html", &edition, &chapter, ".", book::FilterEntry::Stage::Resolved};
    bookfilters::run_filters({program}, chapter, place, {}, diags);
    EXPECT_EQ(doc::plain_text(chapter.root), "clean") << "chapter " << i;
  }
  EXPECT_FALSE(diags.has_errors());
}

// math.random starts from the same seed in every chapter: a chapter's result does not depend on the
// chapters the same thread filtered before it.
TEST(BookFilters, RandomNumbersStartAfreshInEveryChapter) {
  Diagnostics diags;
  book::Edition edition;
  edition.id = "en";
  bookfilters::Program program;
  program.entry.name = "filters/random.lua";
  program.code = "function Str(s) return pandoc.Str(tostring(math.random(1000000000))) end";
  std::vector<std::string> drawn;
  for (int i = 0; i < 3; ++i) {
    book::Chapter chapter{"ch0" + std::to_string(i), i, "x.md", markdown::parse("word\n", "x.md", diags),
                          "X"};
    bookfilters::Place place{"html", &edition, &chapter, ".", book::FilterEntry::Stage::Resolved};
    bookfilters::run_filters({program}, chapter, place, {}, diags);
    drawn.push_back(doc::plain_text(chapter.root));
  }
  EXPECT_NE(drawn[0], "word");
  EXPECT_EQ(drawn[1], drawn[0]);
  EXPECT_EQ(drawn[2], drawn[0]);
  EXPECT_FALSE(diags.has_errors());
}

// The kept state is found by the filter's text, not its name: a filter edited under `site --serve`
// runs as edited on the next rebuild.
TEST(BookFilters, AnEditedFilterRunsAsEdited) {
  Diagnostics diags;
  book::Edition edition;
  edition.id = "en";
  bookfilters::Program program;
  program.entry.name = "filters/edited.lua";
  for (const std::string word : {"first", "second", "first"}) {
    program.code = "function Str(s) return pandoc.Str('" + word + "') end";
    book::Chapter chapter{"ch01", 1, "x.md", markdown::parse("word\n", "x.md", diags), "X"};
    bookfilters::Place place{"html", &edition, &chapter, ".", book::FilterEntry::Stage::Resolved};
    bookfilters::run_filters({program}, chapter, place, {}, diags);
    EXPECT_EQ(doc::plain_text(chapter.root), word);
  }
  EXPECT_FALSE(diags.has_errors());
}

}  // namespace
}  // namespace bb
