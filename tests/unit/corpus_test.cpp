// The real book's chapters (../shared/corpus/upstream): every file parses with zero errors, and what
// the front end finds matches counts taken independently from the raw text with simple line rules.
#include <iostream>
#include <regex>

#include "book/book.hpp"
#include "book/config.hpp"
#include "filters/pipeline.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path corpus() {
  if (const char* env = std::getenv("BOOKBUILD_CORPUS"); env && *env) return env;
  return BOOKBUILD_CORPUS;
}

struct RawCounts {
  int figures = 0, display_math = 0, tables = 0, footnote_refs = 0;
};

// Line-based counts that do not use the front end: an image alone on its line is a figure; `$$`
// lines come in pairs; a table has one delimiter row; a footnote reference is `[^key]` not followed
// by a colon.
RawCounts count_raw(const std::string& text) {
  RawCounts c;
  std::istringstream in(text);
  std::string line;
  static const std::regex image_alone(R"(^!\[[^\n]*\]\([^)\s]+\)\s*$)");
  static const std::regex delimiter_row(R"(^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$)");
  static const std::regex note_ref(R"(\[\^[^\]\s]+\](?!:))");
  bool in_code = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    if (in_code) continue;
    if (std::regex_match(line, image_alone)) ++c.figures;
    if (line == "$$") ++c.display_math;
    if (std::regex_match(line, delimiter_row)) ++c.tables;
    c.footnote_refs += static_cast<int>(
        std::distance(std::sregex_iterator(line.begin(), line.end(), note_ref), std::sregex_iterator()));
  }
  c.display_math /= 2;
  return c;
}

TEST(Corpus, EveryChapterParsesAndCountsMatch) {
  if (!fs::is_directory(corpus()))
    GTEST_SKIP() << "corpus not present at " << corpus() << " (optional input)";
  Diagnostics d;
  auto cfg = book::load_config(corpus(), d);
  ASSERT_TRUE(cfg);
  auto b = book::load_book(std::move(*cfg), d);
  EXPECT_EQ(d.error_count(), 0u);
  int chapters = 0;
  for (const auto& e : b.editions) {
    for (const auto& ch : e.chapters) {
      ++chapters;
      RawCounts raw = count_raw(test::read_file(ch.path));
      RawCounts got;
      int captioned = 0;
      doc::walk(ch.root, [&](const doc::Node& n) {
        if (n.kind == doc::Kind::Figure) {
          ++got.figures;
          if (!n.caption().empty() && n.attr("hand-number")) ++captioned;
        }
        if (n.kind == doc::Kind::DisplayMath) ++got.display_math;
        if (n.kind == doc::Kind::Table) ++got.tables;
        if (n.kind == doc::Kind::FootnoteRef) ++got.footnote_refs;
        // A formula never swallows the text up to the next formula (a `$` inside math would mean the
        // delimiters were paired wrongly, e.g. by concurrent parsers sharing cmark-gfm state).
        if (n.kind == doc::Kind::InlineMath) {
          EXPECT_EQ(n.text.find('$'), std::string::npos) << n.text;
        }
      });
      SCOPED_TRACE(ch.path.string());
      EXPECT_GT(raw.figures, 0);
      EXPECT_EQ(got.figures, raw.figures);
      EXPECT_EQ(captioned, raw.figures) << "every corpus figure has a numbered caption";
      EXPECT_EQ(got.display_math, raw.display_math);
      EXPECT_EQ(got.tables, raw.tables);
      EXPECT_EQ(got.footnote_refs, raw.footnote_refs);
    }
  }
  EXPECT_EQ(chapters, 4);
}

// References from the corpus's preface and chapters 1–6 into chapters 7–12, which the corpus leaves
// out: left as text with a note. Measured on the corpus as shipped. (91 until issue 46 item 2: an
// experiment a chapter also writes as a path, `實驗 10-8` beside `../experiments/ch10/10-08/`, names
// that run, so 4 of them are no longer notes: the `實驗 7-3`, `8-1` and `10-8` of chapters 3, 4 and 6,
// whose runs those chapters link to.)
constexpr int kZhTwReferencesToOtherChapters = 87;
// References naming a number nothing in the build carries. Chapter 2's table titles standing above
// notes and sub-tables (`**表 2-1　…**`) are table targets, so none is left: its 9 prose references
// link, and the titles' own numbers (6, formerly counted here) are no references. Its lettered
// tables (`表 2-A` … `表 2-E`) are targets too: 14 references link; the 2 in image alt texts are text.
constexpr int kZhTwReferencesWithoutTarget = 0;
constexpr int kZhTwLinkedReferences = 467;

// The real book's Traditional Chinese edition (preface and chapters 1–6), built unchanged.
fs::path zh_tw_corpus() {
  if (const char* env = std::getenv("BOOKBUILD_ZH_TW_CORPUS"); env && *env) return env;
  return corpus().parent_path() / "zh-tw";
}

TEST(CorpusZhTw, ChecksWithoutErrorsAndBuildsSiteEpubLatex) {
  if (!fs::is_directory(zh_tw_corpus())) GTEST_SKIP() << "zh-tw corpus not present (optional input)";
  auto out = fs::temp_directory_path() / ("bb-zh-tw-" + std::to_string(::getpid()));
  std::string book = "--book '" + zh_tw_corpus().string() + "' --out '" + out.string() + "' ";
  for (const char* command : {"check", "site", "epub", "latex", "check site"}) {
    auto r = test::run_bookbuild(book + command);
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    EXPECT_EQ(r.err.find(": error: "), std::string::npos) << command << "\n" << r.err;
  }
  fs::remove_all(out);
}

// Hand-written references: each one is a link, or is left as text with a diagnostic that says why
// (a chapter outside this corpus, a number nothing carries). The counts are those of the corpus as
// shipped; the closing note of issue 11 lists the unlinked ones.
TEST(CorpusZhTw, PlainReferencesLinkedOrExplained) {
  if (!fs::is_directory(zh_tw_corpus())) GTEST_SKIP() << "zh-tw corpus not present (optional input)";
  Diagnostics d;
  auto cfg = book::load_config(zh_tw_corpus(), d);
  ASSERT_TRUE(cfg);
  auto b = book::load_book(std::move(*cfg), d);
  filters::resolve(b, d);
  EXPECT_EQ(d.error_count(), 0u);
  int linked = 0;
  for (const auto& e : b.editions)
    for (const auto& ch : e.chapters)
      doc::walk(ch.root, [&](const doc::Node& n) {
        if (n.kind == doc::Kind::CrossRef && n.has_class("plain") && n.attr("target")) ++linked;
      });
  int other_chapter = 0, no_target = 0;
  std::string listing;
  for (const auto& x : d.all()) {
    if (x.check != "refs") continue;
    bool outside = x.message.find("which is not part of this build") != std::string::npos;
    bool missing = x.message.find("` names no ") != std::string::npos;
    other_chapter += outside;
    no_target += missing;
    if (outside || missing)
      listing += x.loc.path.filename().string() + ":" + std::to_string(x.loc.line) + ": " + x.message + "\n";
  }
  SCOPED_TRACE(listing);
  std::cout << "linked " << linked << ", other chapters " << other_chapter << ", no target " << no_target
            << "\n"
            << listing;
  EXPECT_EQ(linked, kZhTwLinkedReferences);
  EXPECT_EQ(no_target, kZhTwReferencesWithoutTarget);
  EXPECT_EQ(other_chapter, kZhTwReferencesToOtherChapters);
}

}  // namespace
}  // namespace bb
