// Book configuration: book.toml, its errors with places, and the zero-config layout.
#include "book/config.hpp"
#include "book/paths.hpp"
#include "test_support.hpp"

#include <thread>
#include <vector>

namespace bb::book {
namespace {

namespace fs = std::filesystem;

class TempBook : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("bb-config-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void file(const std::string& rel, const std::string& content) { test::write_file(root_ / rel, content); }
  fs::path root_;
};

TEST_F(TempBook, ReadsEditionsInOrderWithDefaults) {
  file("book.toml", R"(
[book]
title = "T"
authors = ["A"]
repository = "https://example.org/r"
source-edition = "zh"

[[edition]]
id = "zh"
lang = "zh-Hans"
folder = "manuscripts"
site-path = ""
chapters = ["00-preface.md", "01-one.md"]

[[edition]]
id = "ru"
lang = "ru"
folder = "book-ru"
chapters = ["chapter1.md"]
[edition.labels]
figure = "Рисунок {}"
)");
  file("manuscripts/00-preface.md", "# P\n");
  file("manuscripts/01-one.md", "# One\n");
  file("book-ru/chapter1.md", "# Один\n");
  Diagnostics d;
  auto cfg = load_config(root_, d);
  ASSERT_TRUE(cfg) << d.all().size();
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(cfg->editions.size(), 2u);
  EXPECT_EQ(cfg->source().id, "zh");
  EXPECT_EQ(cfg->editions[0].chapters[0].key, "preface");
  EXPECT_EQ(cfg->editions[0].chapters[1].key, "ch01");
  EXPECT_EQ(cfg->editions[1].site_path, "ru/");
  EXPECT_EQ(cfg->editions[1].labels.figure, "Рисунок {}");
  EXPECT_EQ(cfg->editions[1].labels.table, "Табл. {}");  // default kept
  EXPECT_EQ(cfg->editions[1].numbers.decimal, ",");
  EXPECT_EQ(cfg->editions[1].numbers.group, "\u202F");
}

TEST_F(TempBook, ReportsEveryProblemWithItsLine) {
  file("book.toml", R"([book]
title = "T"
colour = "red"

[[edition]]
id = "zh"
lang = "zh-Hans"
chapters = ["missing.md", "notes.md"]
[edition.labels]
figure = "图"
)");
  Diagnostics d;
  load_config(root_, d);
  auto all = d.all();
  std::string text;
  for (const auto& x : all) text += format_diagnostic(x, root_) + "\n";
  EXPECT_NE(text.find("book.toml:3:1: warning: unknown key `colour` in [book]"), std::string::npos) << text;
  EXPECT_NE(text.find("book.toml:8:12: error: cannot tell the chapter number of `missing.md`"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("book.toml:10:10: error: label `figure` must contain `{}`"), std::string::npos) << text;
}

TEST_F(TempBook, CoverImageIsReadAndMustExist) {
  file("book.toml", R"([book]
title = "T"

[[edition]]
id = "en"
lang = "en"
folder = "book"
chapters = ["chapter01.md"]
cover = "art/cover.png"

[[edition]]
id = "ru"
lang = "ru"
folder = "book-ru"
chapters = ["chapter1.md"]
cover = "missing.png"
)");
  file("book/chapter01.md", "# One\n");
  file("book/art/cover.png", "png");
  file("book-ru/chapter1.md", "# Один\n");
  Diagnostics d;
  auto cfg = load_config(root_, d);
  ASSERT_TRUE(cfg);
  EXPECT_EQ(cfg->editions[0].cover, "art/cover.png");
  ASSERT_EQ(d.error_count(), 1u) << d.all()[0].message;
  EXPECT_EQ(d.all()[0].loc.line, 16) << d.all()[0].message;
  EXPECT_NE(d.all()[0].message.find("book-ru/missing.png"), std::string::npos);
}

TEST_F(TempBook, TomlSyntaxErrorHasPlace) {
  file("book.toml", "[book]\ntitle = \n");
  Diagnostics d;
  EXPECT_FALSE(load_config(root_, d));
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 2);
}

// toml++ reaches undefined behaviour on U+00A1–U+0499 where it looks for whitespace (config.cpp,
// toml_reader_hazard; fuzz/regressions/config/non-ascii-bare-key.toml): such input is an error at
// its place before toml++ sees it, and non-ASCII text in strings and comments is read as before.
TEST_F(TempBook, NonAsciiWhereTheTomlReaderFailsIsAnErrorWithItsPlace) {
  struct Case {
    std::string toml;
    int line, col;  // 0: no such error
  };
  const Case cases[] = {
      {"[\xC5\x83 = \"x\"]\n", 1, 2},          // a bare key: Ń
      {"[book]\ntitle = 1\xD0\x96\n", 2, 10},  // after a value: Ж
      {"[book]\ntitle = \"\"\"a \\\n   \xC5\x83"
       "b\"\"\"\n",
       3, 4},                                                              // after a line-ending backslash
      {"[book]\ntitle = \"\"\"\\\xC3\xA9\"\"\"\n", 2, 13},                 // right after a backslash: é
      {"[book]\ntitle = \"\xD0\xA0\xD1\x83 \\\" \xC5\x83\"  # \xC5\x83\n"  // strings, comments: fine
       "rights = '\xC5\x83'\nauthors = [\"\"\"x\"\"\\\"y \xC5\x83\"\"\"\"]\n",
       0, 0},
      {"\xEF\xBB\xBF[book]\ntitle = \"T\"\n", 0, 0},  // a byte order mark first: fine
  };
  for (const auto& c : cases) {
    file("book.toml", c.toml);
    Diagnostics d;
    EXPECT_FALSE(load_config(root_, d));
    bool hazard = false;
    for (const auto& diag : d.all()) {
      if (diag.message.find("non-ASCII") == std::string::npos &&
          diag.message.find("backslash") == std::string::npos)
        continue;
      hazard = true;
      EXPECT_EQ(diag.loc.line, c.line) << c.toml;
      EXPECT_EQ(diag.loc.col, c.col) << c.toml;
    }
    EXPECT_EQ(hazard, c.line != 0) << c.toml;
  }
}

TEST_F(TempBook, RecognisesTheRealBookLayout) {
  file("manuscripts/00-前言.md", "# 前言\n");
  file("manuscripts/01-概览.md", "# 第 1 章\n");
  file("manuscripts/README.md", "not a chapter\n");
  file("book-en/introduction.md", "# Preface\n");
  file("book-en/chapter01.md", "# One\n");
  file("book-ru/book/preface.md", "# Предисловие\n");
  file("book-ru/book/chapter1.md", "# Один\n");
  Diagnostics d;
  auto cfg = load_config(root_, d);
  ASSERT_TRUE(cfg);
  ASSERT_EQ(cfg->editions.size(), 3u);
  EXPECT_EQ(cfg->editions[0].id, "zh");
  EXPECT_EQ(cfg->editions[0].site_path, "");
  EXPECT_EQ(cfg->editions[0].chapters.size(), 2u);
  EXPECT_EQ(cfg->editions[1].id, "en");
  EXPECT_EQ(cfg->editions[1].chapters[0].key, "preface");
  EXPECT_EQ(cfg->editions[2].lang, "ru");
  EXPECT_EQ(cfg->editions[2].chapters[1].key, "ch01");
}

TEST_F(TempBook, UnknownLayoutIsAClearError) {
  file("notes.txt", "x");
  Diagnostics d;
  EXPECT_FALSE(load_config(root_, d));
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_NE(d.all()[0].message.find("no book.toml"), std::string::npos);
}

TEST(ChapterFiles, KeysFromNames) {
  EXPECT_EQ(chapter_from_file("04-加速器架构.md")->key, "ch04");
  EXPECT_EQ(chapter_from_file("chapter5.md")->number, 5);
  EXPECT_EQ(chapter_from_file("introduction.md")->key, "preface");
  EXPECT_EQ(chapter_from_file("00-前言.md")->number, 0);
  EXPECT_FALSE(chapter_from_file("README.md"));
}

// One guard resolves every link of an edition (filters/links.cpp): what it keeps between paths must
// never let a later path out of the book.
TEST(PathGuard, OneGuardForManyPathsRefusesEveryWayOut) {
  test::TempDir t("bb-guard");
  const fs::path root = t.path / "book";
  const fs::path outside = t.path / "outside";
  fs::create_directories(root / "a");
  fs::create_directories(outside);
  test::write_file(root / "a/img.png", "x");
  test::write_file(outside / "secret.png", "x");
  fs::create_directory_symlink(outside, root / "out-dir");
  fs::create_symlink(outside / "secret.png", root / "out-file.png");
  fs::create_symlink(root / "a/img.png", root / "in-file.png");
  fs::create_directories(root / "deep/er");
  fs::create_directory_symlink(outside, root / "deep/er/out");   // a way out below folders seen before
  fs::create_directory_symlink(root / "a", root / "deep/to-a");  // a folder link that stays inside
  PathGuard guard(root);
  const fs::path canonical_root = fs::canonical(root);
  for (int round = 0; round < 2; ++round) {  // the second round is answered from what the first kept
    auto img = guard.confine("a/img.png");
    ASSERT_TRUE(img.ok()) << img.error;
    EXPECT_EQ(img.path, canonical_root / "a/img.png");
    EXPECT_TRUE(fs::is_regular_file(img.status));
    auto missing = guard.confine(root / "a/missing.png");
    EXPECT_TRUE(missing.ok());
    EXPECT_EQ(missing.status.type(), fs::file_type::not_found);
    auto through = guard.confine(root / "out-dir/secret.png");
    EXPECT_FALSE(through.ok());
    EXPECT_NE(through.error.find("links outside the book"), std::string::npos) << through.error;
    EXPECT_FALSE(guard.confine(root / "a/../out-dir/secret.png").ok());
    auto file = guard.confine("out-file.png");
    EXPECT_FALSE(file.ok());
    EXPECT_NE(file.error.find("symbolic link to a file outside"), std::string::npos) << file.error;
    auto in = guard.confine("in-file.png");
    ASSERT_TRUE(in.ok()) << in.error;
    EXPECT_EQ(in.path, canonical_root / "a/img.png");
    EXPECT_TRUE(fs::is_regular_file(in.status));
    EXPECT_FALSE(guard.confine("../outside/secret.png").ok());
    EXPECT_TRUE(guard.confine("deep/er/x.png").ok());
    EXPECT_FALSE(guard.confine("deep/er/out/secret.png").ok());
    EXPECT_FALSE(guard.confine("deep/er/out/not/there.png").ok());
    auto via = guard.confine("deep/to-a/img.png");
    ASSERT_TRUE(via.ok()) << via.error;
    EXPECT_EQ(via.path, canonical_root / "a/img.png");
    EXPECT_FALSE(guard.confine("deep/to-a/../../out-dir/secret.png").ok());
  }
}

// An edition's chapters resolve on every core through one guard (filters/pipeline.cpp): whatever order
// threads ask in, and whichever thread fills the memo, each answer is the one a guard that has seen no
// other path gives.
TEST(PathGuard, OneGuardSharedByThreadsAnswersAsAFreshGuard) {
  test::TempDir t("bb-guard-threads");
  const fs::path root = t.path / "book";
  const fs::path outside = t.path / "outside";
  fs::create_directories(outside / "sub");
  test::write_file(outside / "secret.png", "x");
  fs::create_directories(root / "deep/er");
  fs::create_directory_symlink(outside, root / "deep/er/out");
  fs::create_directory_symlink(root / "deep", root / "to-deep");
  fs::create_symlink(outside / "secret.png", root / "out-file.png");
  std::vector<std::string> asked;
  for (int c = 0; c < 12; ++c) {
    const std::string ch = "ch" + std::to_string(c);
    fs::create_directories(root / ch / "fig");
    test::write_file(root / ch / "fig" / "a.svg", "x");
    fs::create_symlink(root / ch / "fig" / "a.svg", root / ch / "fig" / "in.svg");
    fs::create_symlink(outside / "secret.png", root / ch / "fig" / "out.svg");
    for (const char* rel :
         {"fig/a.svg", "fig/in.svg", "fig/out.svg", "fig/missing.svg", "fig", "../out-file.png",
          "../deep/er/out/secret.png", "../deep/er/out/sub/x", "../to-deep/er/out/secret.png",
          "../to-deep/er/y.md", "../../outside/secret.png", "fig/../../ch0/fig/a.svg"}) {
      asked.push_back(ch + "/" + rel);
      asked.push_back((root / ch / rel).string());
    }
  }
  std::vector<ConfinedPath> expected;
  for (const auto& p : asked) expected.push_back(PathGuard(root).confine_bytes(p));
  PathGuard shared(root);
  std::vector<std::thread> threads;
  std::vector<std::vector<ConfinedPath>> got(4, std::vector<ConfinedPath>(asked.size()));
  for (std::size_t w = 0; w < got.size(); ++w)
    threads.emplace_back([&, w] {
      for (int round = 0; round < 3; ++round)
        for (std::size_t i = 0; i < asked.size(); ++i) {
          // Each thread walks the list from its own starting point, forwards or backwards.
          const std::size_t k = (w % 2 ? asked.size() - 1 - i : i + w * 7) % asked.size();
          got[w][k] = shared.confine_bytes(asked[k]);
        }
    });
  for (auto& th : threads) th.join();
  std::size_t refused = 0;
  for (std::size_t i = 0; i < asked.size(); ++i) {
    refused += !expected[i].ok();
    for (std::size_t w = 0; w < got.size(); ++w) {
      EXPECT_EQ(got[w][i].ok(), expected[i].ok()) << asked[i];
      EXPECT_EQ(got[w][i].error, expected[i].error) << asked[i];
      EXPECT_EQ(got[w][i].path, expected[i].path) << asked[i];
      EXPECT_EQ(got[w][i].status.type(), expected[i].status.type()) << asked[i];
    }
  }
  EXPECT_EQ(refused, 12u * 2 * 6);  // out.svg, out-file, both ways through deep/er/out, ../../outside
}

// The guard compares the bytes of normal forms: a sibling folder whose name starts with the book's
// (`book-other` next to `book`) is outside, and so is everything else whether the root was given
// with a trailing slash or not.
TEST(PathGuard, ASiblingWithTheBooksNameAsPrefixIsOutside) {
  test::TempDir t("bb-guard-prefix");
  fs::create_directories(t.path / "book" / "a");
  test::write_file(t.path / "book" / "a" / "img.png", "x");
  test::write_file(t.path / "book-other" / "secret.png", "x");
  for (const std::string& root : {(t.path / "book").string(), (t.path / "book").string() + "/"}) {
    PathGuard guard(root);
    EXPECT_EQ(guard.root(), fs::canonical(t.path / "book")) << root;
    EXPECT_TRUE(guard.confine("a/img.png").ok()) << root;
    EXPECT_TRUE(guard.confine("").ok()) << root;  // the root itself
    EXPECT_FALSE(guard.confine("../book-other/secret.png").ok()) << root;
    EXPECT_FALSE(guard.confine(t.path / "book-other" / "secret.png").ok()) << root;
    EXPECT_FALSE(guard.confine(t.path / "book-other").ok()) << root;
    EXPECT_FALSE(guard.confine("a/../../book-other/secret.png").ok()) << root;
  }
}

// lexically_normal on the bytes gives what the standard library gives, for every shape of path.
TEST(PathGuard, LexicallyNormalIsTheStandardLibrarys) {
  const char* parts[] = {"a", "bc", ".", "..", "", "x.y", "...", "a b", "中文"};
  std::uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 20000; ++i) {
    std::string p = (next() >> 8) % 5 ? "/" : "";
    const int n = static_cast<int>((next() >> 8) % 8);
    for (int k = 0; k < n; ++k) {
      if (k) p += (next() >> 8) % 6 ? "/" : "//";
      p += parts[(next() >> 8) % std::size(parts)];
    }
    if ((next() >> 8) % 4 == 0) p += "/";
    EXPECT_EQ(lexically_normal(p).native(), fs::path(p).lexically_normal().native()) << "path: " << p;
  }
}

// The README's level-1 heading names the book, in each form Markdown writes one; never the folder.
TEST_F(TempBook, TitleFromTheReadmeInEveryHeadingForm) {
  file("book-zh-tw/introduction.md", "# 前言\n");
  file("book-zh-tw/chapter01.md", "# 第 1 章\n");
  const std::pair<const char*, const char*> forms[] = {
      {"# 《書名甲》\n", "書名甲"},
      {"\xEF\xBB\xBF# Title With a BOM #\n", "Title With a BOM"},
      {"<p align=\"center\"><img src=\"x.png\"></p>\n\nSetext Title\n============\n\ntext\n", "Setext Title"},
      {"<h1 align=\"center\">HTML <em>Title</em></h1>\n", "HTML Title"},
      {"```\n# not a heading\n```\n\n# Fenced Code First\n", "Fenced Code First"}};
  for (const auto& [readme, title] : forms) {
    file("README.md", readme);
    Diagnostics d;
    auto cfg = load_config(root_, d);
    ASSERT_TRUE(cfg);
    EXPECT_EQ(cfg->title, title) << readme;
    EXPECT_EQ(cfg->editions.front().title, title) << readme;
    EXPECT_EQ(cfg->origins["title"].substr(0, 10), "README.md:") << readme;
  }
}

// book.toml over a detected layout: [book] keys change only themselves; an [[edition]] without
// `chapters` changes only its keys; one with `chapters` declares its edition whole.
TEST_F(TempBook, BookTomlOverridesTheLayoutOnlyWhereItSpeaks) {
  file("manuscripts/00-前言.md", "# 前言\n");
  file("manuscripts/01-一.md", "# 第 1 章 一\n");
  file("book-en/introduction.md", "# Preface\n");
  file("book-en/chapter01.md", "# Chapter 1 One\n");
  file("README.md", "# 书名\n\n作者：某人\n");
  Diagnostics d0;
  const auto bare = load_config(root_, d0);
  ASSERT_TRUE(bare);
  file("book.toml", "[book]\ntitle = \"Configured\"\n");
  Diagnostics d1;
  auto over = load_config(root_, d1);
  ASSERT_TRUE(over) << (d1.all().empty() ? "" : d1.all().front().message);
  EXPECT_FALSE(d1.has_errors());
  EXPECT_EQ(over->title, "Configured");
  EXPECT_EQ(over->authors, bare->authors);
  ASSERT_EQ(over->editions.size(), bare->editions.size());
  for (std::size_t i = 0; i < bare->editions.size(); ++i) {
    const Edition &a = bare->editions[i], &b = over->editions[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.site_path, b.site_path);
    EXPECT_EQ(a.download_name, b.download_name);
    EXPECT_EQ(a.mkdocs_ids, b.mkdocs_ids);
    EXPECT_EQ(a.chapters.size(), b.chapters.size());
  }
  EXPECT_EQ(over->plain_references, bare->plain_references);
  EXPECT_EQ(over->edition_structure, Policy::Warning);

  file("book.toml", "[[edition]]\nid = \"en\"\ntitle = \"The Book\"\ndownload-name = \"Book-EN\"\n");
  Diagnostics d2;
  auto edition = load_config(root_, d2);
  ASSERT_TRUE(edition);
  ASSERT_EQ(edition->editions.size(), 2u);
  EXPECT_EQ(edition->editions[1].title, "The Book");
  EXPECT_EQ(edition->editions[1].download_name, "Book-EN");
  EXPECT_TRUE(edition->editions[1].mkdocs_ids);
  EXPECT_EQ(edition->editions[1].site_path, "en/");
  EXPECT_EQ(edition->editions[0].download_name, bare->editions[0].download_name);
  EXPECT_EQ(edition->source_edition, "zh");

  file("book.toml",
       "[[edition]]\nid = \"zh\"\nlang = \"zh-Hans\"\nfolder = \"manuscripts\"\nsite-path = \"\"\n"
       "chapters = [\"00-前言.md\", \"01-一.md\"]\n[[edition]]\nid = \"en\"\nlang = \"en\"\n"
       "folder = \"book-en\"\nchapters = [\"introduction.md\", \"chapter01.md\"]\n");
  Diagnostics d3;
  auto whole = load_config(root_, d3);
  ASSERT_TRUE(whole);
  for (const auto& e : whole->editions) {
    EXPECT_FALSE(e.mkdocs_ids) << e.id;
    EXPECT_TRUE(e.download_name.empty()) << e.id;
  }
  EXPECT_EQ(whole->plain_references, Policy::Error);
  EXPECT_EQ(whole->edition_structure, Policy::Error);
}

// An [[edition]] takes a detected edition's place by its id or by its folder; no id is left twice.
TEST_F(TempBook, AnEditionTakingAnIdOrAFolderReplacesTheDetectedOne) {
  file("manuscripts/00-preface.md", "# Preface\n");
  file("book-en/introduction.md", "# Preface\n");
  file("book-en/chapter01.md", "# One\n");
  file("book.toml",
       "[[edition]]\nid = \"en\"\nlang = \"en\"\nfolder = \"manuscripts\"\nchapters = [\"00-preface.md\"]\n");
  Diagnostics d;
  auto cfg = load_config(root_, d);
  ASSERT_TRUE(cfg);
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(cfg->editions.size(), 1u);
  EXPECT_EQ(cfg->editions[0].id, "en");
  EXPECT_EQ(cfg->editions[0].folder, "manuscripts");
  EXPECT_FALSE(cfg->editions[0].detected);
}

}  // namespace
}  // namespace bb::book
