// A book laid out as a clone of the real book's repository (no book.toml, an `origin` remote) is one
// configuration with a book.toml over it: the layout gives the editions, old addresses, download names
// and lenient policies; the README gives the title; the remote gives the repository; book.toml changes
// only what it names. Fixture: tests/dropin/fixtures/clone, made a Git repository in a scratch folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_bookbuild;
using test::TempDir;

const fs::path kClone = fs::path(BOOKBUILD_SOURCE_DIR) / "tests/dropin/fixtures/clone";

// The fixture copied to <scratch>/small-book, a Git repository with one commit and `remote` as origin
// (none when empty), and `book_toml` as its book.toml (none when empty).
struct Clone {
  TempDir scratch{"bb-clone"};
  fs::path root;
  Clone(const std::string& remote, const std::string& book_toml) {
    root = scratch.path / "small-book";
    fs::copy(kClone, root, fs::copy_options::recursive);
    if (!book_toml.empty()) test::write_file(root / "book.toml", book_toml);
    std::string git = "cd '" + root.string() +
                      "' && export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null && git -c "
                      "init.defaultBranch=main init -q && git add -A && git -c user.name=t -c "
                      "user.email=t@example.org commit -qm c";
    if (!remote.empty()) git += " && git remote add origin '" + remote + "'";
    EXPECT_EQ(test::run_command(git).exit_code, 0);
  }
  test::RunResult run(const std::string& command, const fs::path& out) const {
    return run_bookbuild("--book '" + root.string() + "' --out '" + out.string() + "' " + command);
  }
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// What a reader and a release see of a built site and its EPUBs: the redirect pages, the alias ids of
// every page, the download names, the title.
struct Outputs {
  std::set<std::string> redirects, aliases, downloads;
  std::string title;
  std::string err;
};

Outputs outputs(const Clone& clone, const std::string& command = "site") {
  TempDir out("bb-clone-out");
  Outputs o;
  auto site = clone.run(command, out.path);
  EXPECT_EQ(site.exit_code, 0) << site.err;
  auto epub = clone.run("epub", out.path);
  EXPECT_EQ(epub.exit_code, 0) << epub.err;
  o.err = site.err + epub.err;
  const fs::path s = out.path / "site";
  static const std::regex alias("<span class=\"alias\" id=\"([^\"]+)\"");
  for (const auto& f : fs::recursive_directory_iterator(s)) {
    if (f.path().extension() != ".html") continue;
    const std::string page = read_file(f.path());
    const std::string rel = f.path().lexically_relative(s).generic_string();
    if (page.find("location.replace(") != std::string::npos) o.redirects.insert(rel);
    for (std::sregex_iterator m(page.begin(), page.end(), alias), end; m != end; ++m)
      o.aliases.insert(rel + "#" + (*m)[1].str());
  }
  for (const auto& f : fs::directory_iterator(out.path / "epub"))
    o.downloads.insert(f.path().filename().string());
  std::smatch m;
  const std::string home = read_file(s / "index.html");
  if (std::regex_search(home, m, std::regex("<title>([^<]*)</title>"))) o.title = m[1].str();
  return o;
}

TEST(Clone, TitleFromTheReadmeAndRepositoryFromAnHttpsRemote) {
  Clone clone("https://github.com/owner/small-book.git", "");
  TempDir out("bb-clone-out");
  auto r = clone.run("site", out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.err, "needs a repository"), 0u) << r.err;
  const std::string home = read_file(out.path / "site/index.html");
  EXPECT_NE(home.find("<title>Tiles and Tides: A Clone-Shaped Test Book"), std::string::npos) << home;
  EXPECT_EQ(home.find("<title>small-book"), std::string::npos);
  const std::string ch = read_file(out.path / "site/ch01.html");
  EXPECT_NE(ch.find("href=\"https://github.com/owner/small-book/blob/"), std::string::npos) << ch;
  EXPECT_NE(ch.find("/notes/tiles.md\""), std::string::npos);
  // No message names a book.toml the book does not have.
  EXPECT_EQ(r.err.find("book.toml:"), std::string::npos) << r.err;
}

TEST(Clone, RepositoryFromAnSshRemote) {
  for (const char* remote :
       {"git@github.com:owner/small-book.git", "ssh://git@github.com/owner/small-book"}) {
    Clone clone(remote, "");
    TempDir out("bb-clone-out");
    auto r = clone.run("site", out.path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(count(r.err, "needs a repository"), 0u) << remote << r.err;
    EXPECT_NE(read_file(out.path / "site/ch01.html").find("href=\"https://github.com/owner/small-book/blob/"),
              std::string::npos)
        << remote;
  }
}

TEST(Clone, WithoutARemoteTheRepositoryLinksWarnAndSaySo) {
  Clone clone("", "");
  TempDir out("bb-clone-out");
  auto r = clone.run("site", out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(count(r.err, "needs a repository web address"), 0u) << r.err;
  EXPECT_NE(r.err.find("Git remote"), std::string::npos);
}

TEST(Clone, BookOnlyTomlChangesNothingElse) {
  const Outputs bare = outputs(Clone("https://github.com/owner/small-book", ""));
  ASSERT_FALSE(bare.redirects.empty());
  ASSERT_FALSE(bare.aliases.empty());
  EXPECT_TRUE(bare.downloads.count("AI-Infra-Book.epub")) << *bare.downloads.begin();
  EXPECT_TRUE(bare.downloads.count("AI-Infra-Book-ZH-TW.epub"));
  const Outputs over = outputs(Clone("https://github.com/owner/small-book",
                                     "[book]\ntitle = \"Tides, Configured\"\n"
                                     "repository = \"https://github.com/owner/small-book\"\n"
                                     "site-url = \"https://owner.github.io/small-book/\"\n"));
  EXPECT_EQ(over.redirects, bare.redirects);
  EXPECT_EQ(over.aliases, bare.aliases);
  EXPECT_EQ(over.downloads, bare.downloads);
  EXPECT_NE(over.title.find("Tides, Configured"), std::string::npos) << over.title;
}

TEST(Clone, AnEditionOverDetectedOneChangesOnlyItsKeys) {
  const Outputs bare = outputs(Clone("https://github.com/owner/small-book", ""));
  Clone clone("https://github.com/owner/small-book",
              "[[edition]]\nid = \"zh-tw\"\ntitle = \"潮汐與分塊（繁體）\"\n");
  const Outputs over = outputs(clone);
  EXPECT_EQ(over.redirects, bare.redirects);
  EXPECT_EQ(over.aliases, bare.aliases);
  EXPECT_EQ(over.downloads, bare.downloads);
  TempDir out("bb-clone-out");
  ASSERT_EQ(clone.run("site", out.path).exit_code, 0);
  EXPECT_NE(read_file(out.path / "site/zh-tw/index.html").find("潮汐與分塊（繁體）"), std::string::npos);
}

TEST(Clone, ALaggingTranslationBuildsWithWarnings) {
  Clone clone("https://github.com/owner/small-book", "");
  TempDir out("bb-clone-out");
  auto r = clone.run("check refs numbers", out.path);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("book-zh-tw/chapter01.md"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("edition-structure"), std::string::npos) << r.err;
  // The run named by a path of the chapter is no dangling reference.
  EXPECT_EQ(r.err.find("names no experiment"), std::string::npos) << r.err;
}

TEST(Clone, EditionStructureErrorPolicyBlocks) {
  Clone clone("https://github.com/owner/small-book", "[policy]\nedition-structure = \"error\"\n");
  TempDir out("bb-clone-out");
  auto r = clone.run("check refs numbers", out.path);
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("book-zh-tw/chapter01.md"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
}

TEST(Clone, VerboseSaysWhereEachValueCameFrom) {
  Clone clone("git@github.com:owner/small-book.git", "[book]\nsite-url = \"https://owner.github.io/s/\"\n");
  TempDir out("bb-clone-out");
  auto r = clone.run("--verbose check parse", out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("title: Tiles and Tides: A Clone-Shaped Test Book (README.md:1)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("authors: Ada Example (README.md:3)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("repository: https://github.com/owner/small-book (git remote"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("site-url: https://owner.github.io/s/ (book.toml:2)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("edition zh-tw: book-zh-tw/"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("policy edition-structure: warning (default for a detected layout)"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace bb
