// A book that replaces bookbuild's: its old addresses (redirect pages, MkDocs heading ids computed as
// pymdownx does, checked against fixtures that function wrote), its own templates.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "book/config.hpp"
#include "test_support.hpp"
#include "text/uslug.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_bookbuild;
using test::TempDir;

const fs::path kFixtures = fs::path(BOOKBUILD_SOURCE_DIR) / "tests/dropin/fixtures";

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
  }
  return out;
}

// Rows of a fixture: "input<TAB>expected", `#` lines are comments.
std::vector<std::pair<std::string, std::string>> rows(const fs::path& file) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) continue;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    out.emplace_back(unescape(line.substr(0, tab)), unescape(line.substr(tab + 1)));
  }
  return out;
}

TEST(Uslugify, MatchesPymdownx) {
  const auto cases = rows(kFixtures / "uslug.tsv");
  ASSERT_GT(cases.size(), 20u);
  for (const auto& [heading, expected] : cases) EXPECT_EQ(text::uslugify(heading), expected) << heading;
}

TEST(Uslugify, DeduplicatesAsPythonMarkdownToc) {
  std::set<std::string> used;
  const auto cases = rows(kFixtures / "unique.tsv");
  ASSERT_GT(cases.size(), 8u);
  for (const auto& [id, expected] : cases) EXPECT_EQ(text::unique_mkdocs_id(id, used), expected) << id;
}

struct Built {
  TempDir out;
  test::RunResult run;
};

std::unique_ptr<Built> build(const std::string& book, const std::string& command) {
  auto b = std::make_unique<Built>();
  b->run = run_bookbuild("--book '" + (kFixtures / book).string() + "' --out '" + b->out.path.string() +
                         "' " + command);
  return b;
}

TEST(BookTemplates, PageTemplateOfTheBookIsUsed) {
  auto b = build("themed", "site");
  ASSERT_EQ(b->run.exit_code, 0) << b->run.err;
  const std::string page = read_file(b->out.path / "site/ch01.html");
  EXPECT_NE(page.find("themed-by-the-book"), std::string::npos);
  EXPECT_NE(page.find("Moving a byte"), std::string::npos);
}

TEST(BookTemplates, PreambleOfTheBookIsUsed) {
  auto b = build("themed", "latex");
  ASSERT_EQ(b->run.exit_code, 0) << b->run.err;
  bool found = false;
  for (const auto& f : fs::recursive_directory_iterator(b->out.path))
    if (f.path().extension() == ".tex" &&
        read_file(f.path()).find("themed-by-the-book preamble") != std::string::npos)
      found = true;
  EXPECT_TRUE(found);
}

TEST(BookTemplates, UnknownSlotIsAnErrorAtItsLine) {
  auto b = build("bad-template", "site");
  EXPECT_NE(b->run.exit_code, 0);
  EXPECT_NE(b->run.err.find("templates/page.html:3:14: error: unknown slot {{no_such_slot}}"),
            std::string::npos)
      << b->run.err;
  EXPECT_FALSE(fs::exists(b->out.path / "site/ch01.html"));
}

TEST(OldAddresses, ConfiguredRedirectsKeepTheFragment) {
  auto b = build("themed", "site");
  ASSERT_EQ(b->run.exit_code, 0) << b->run.err;
  const std::string first = read_file(b->out.path / "site/old/first.html");
  EXPECT_NE(first.find("url=../ch01.html\""), std::string::npos) << first;
  EXPECT_NE(first.find("location.replace(\"../ch01.html\" + location.hash)"), std::string::npos) << first;
  EXPECT_NE(read_file(b->out.path / "site/old/start.html").find("url=../index.html\""), std::string::npos);
  EXPECT_NE(read_file(b->out.path / "site/intro.html").find("url=preface.html\""), std::string::npos);
}

TEST(OldAddresses, HeadingsKeepTheirMkDocsIds) {
  auto b = build("themed", "site");
  ASSERT_EQ(b->run.exit_code, 0) << b->run.err;
  const std::string page = read_file(b->out.path / "site/ch01.html");
  for (const char* id : {"chapter-1-moving-data", "11-why-bytes-matter", "summary", "summary_1"})
    EXPECT_NE(page.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
}

// The real layout without book.toml: every edition its own title, from its own home page or preface.
TEST(RealLayoutMetadata, TitlesPerEditionSubtitleAndAuthor) {
  TempDir book;
  test::write_file(book.path / "manuscripts/00-前言.md", "# 前言\n");
  test::write_file(book.path / "manuscripts/01-概览.md", "# 第 1 章 概览\n");
  test::write_file(book.path / "book-en/introduction.md", "# Preface\n");
  test::write_file(book.path / "book-en/chapter01.md", "# Overview\n");
  test::write_file(book.path / "book-zh-tw/introduction.md", "# 小書的前言\n");
  test::write_file(book.path / "book-zh-tw/chapter01.md", "# 概覽\n");
  test::write_file(book.path / "README.md", "# 小书：副题\n\n作者：某人\n");
  test::write_file(book.path / "website/index.en.md", "# A Small Book\n\n**Bytes first.** More.\n");
  Diagnostics d;
  auto cfg = book::load_config(book.path, d);
  ASSERT_TRUE(cfg);
  ASSERT_EQ(cfg->editions.size(), 3u);
  EXPECT_EQ(cfg->editions[0].title, "小书：副题");
  EXPECT_EQ(cfg->editions[1].title, "A Small Book");
  EXPECT_EQ(cfg->editions[1].subtitle, "Bytes first.");
  EXPECT_EQ(cfg->editions[2].title, "小書的前言");
  ASSERT_EQ(cfg->authors.size(), 1u);
  EXPECT_EQ(cfg->authors[0], "某人");
}

// The other forms read_head knows: an HTML <h1> title, an author note "（… 著）" after a line that only
// holds 著, and a "By:" line after one that only starts with "by".
// The configuration of a one-edition book in the real layout with this README.
std::optional<book::Config> config_with_readme(const std::string& readme) {
  TempDir book;
  test::write_file(book.path / "manuscripts/00-前言.md", "# 前言\n");
  test::write_file(book.path / "manuscripts/01-概览.md", "# 第 1 章 概览\n");
  test::write_file(book.path / "README.md", readme);
  Diagnostics d;
  return book::load_config(book.path, d);
}

TEST(RealLayoutMetadata, HtmlTitleAndAuthorNotes) {
  {
    auto cfg = config_with_readme("<h1 align=\"center\">大<b>书</b></h1>\n\n效果显著。\n\n（李博杰 著）\n");
    ASSERT_TRUE(cfg);
    EXPECT_EQ(cfg->editions[0].title, "大书");
    ASSERT_EQ(cfg->authors.size(), 1u);
    EXPECT_EQ(cfg->authors[0], "李博杰");
  }
  {
    auto cfg = config_with_readme("# Big Book\n\nbyline of nobody\n\n  By: Jane Doe\n");
    ASSERT_TRUE(cfg);
    ASSERT_EQ(cfg->authors.size(), 1u);
    EXPECT_EQ(cfg->authors[0], "Jane Doe");
  }
}

// An edition's home page written in Markdown is resolved like a chapter: its computed numbers read
// as the chapter's do, a reference names the chapter's section, a link to a manuscript and one to its
// own heading go to their pages, its image is published and its math is MathML. In a copy of this
// repository's book (four editions, computed numbers), with a home page for the English edition.
TEST(MarkdownHome, ResolvedLikeAChapter) {
  TempDir dir("bb-markdown-home");
  const fs::path book = dir.path / "book", out = dir.path / "out";
  test::copy_project_book(book);
  test::write_file(book / "website/index.en.md",
                   "# Home of the English edition\n\n"
                   "Qwen3-8B has {{calc qwen3-8b-decode-b1-s8192.parameters}} parameters.\n\n"
                   "See @sec:overview-roofline, [chapter 2](../book-en/chapter02.md) and "
                   "[below](#how-to-read-it). Energy: $E = mc^2$.\n\n"
                   "![The path of a token](../book-en/figures/ch01-token-path.svg)\n\n"
                   "## How to read it\n\nIn order.\n");
  const auto run = run_bookbuild("--book '" + book.string() + "' --out '" + out.string() + "' site");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string home = read_file(out / "site/en/index.html");
  const std::string chapter = read_file(out / "site/en/ch01.html");
  // The number as the chapter shows it (the same placeholder in book-en/chapter01.md).
  const std::regex parameters("Qwen3-8B has (.{1,200}?) parameters");
  std::smatch in_home, in_chapter;
  ASSERT_TRUE(std::regex_search(home, in_home, parameters)) << home;
  ASSERT_TRUE(std::regex_search(chapter, in_chapter, parameters));
  EXPECT_EQ(in_home[1].str(), in_chapter[1].str());
  EXPECT_EQ(home.find("{{calc"), std::string::npos);
  EXPECT_EQ(home.find("@sec:"), std::string::npos) << "the reference is resolved";
  // The reference leads to an id the chapter's page has (the numbered section's).
  std::smatch xref;
  ASSERT_TRUE(std::regex_search(home, xref, std::regex("<a class=\"xref\" href=\"ch01\\.html#([^\"]+)\">")))
      << home;
  EXPECT_NE(chapter.find("id=\"" + xref[1].str() + "\""), std::string::npos) << xref[1];
  EXPECT_NE(home.find("href=\"ch02.html\""), std::string::npos) << home;
  EXPECT_NE(home.find("href=\"#how-to-read-it\""), std::string::npos) << home;
  EXPECT_NE(home.find("id=\"how-to-read-it\""), std::string::npos) << home;
  EXPECT_NE(home.find("<math"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "site/en/figures/ch01-token-path.svg"));
  EXPECT_NE(home.find("src=\"figures/ch01-token-path.svg\""), std::string::npos) << home;
  // The other editions keep the generated home page.
  EXPECT_EQ(read_file(out / "site/zh-tw/index.html").find("Home of the English edition"), std::string::npos);
}

// Its problems are the chapters': located at the home page's file, line and column, and the site is
// not written.
TEST(MarkdownHome, ProblemsAreLocatedErrors) {
  TempDir dir("bb-markdown-home-bad");
  const fs::path book = dir.path / "book", out = dir.path / "out";
  test::copy_project_book(book);
  test::write_file(book / "website/index.zh-tw.md",
                   "# 首頁\n\n參數 {{calc no-such-scenario.parameters}} 個，見 @sec:no-such-label。\n");
  const auto run = run_bookbuild("--book '" + book.string() + "' --out '" + out.string() + "' site");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("website/index.zh-tw.md:3:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no-such-label"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(out / "site/zh-tw/index.html"));
}

}  // namespace
}  // namespace bb
