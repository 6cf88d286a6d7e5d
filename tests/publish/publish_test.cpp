// `bookbuild build` and what it publishes: the download names of book.toml in every output and link,
// the build record, the missing-XeLaTeX path, and the incremental PDF (passes counted by a stand-in
// xelatex, fake-xelatex.sh, so that these run in seconds without TeX).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "test_support.hpp"
#include "text/digest.hpp"

namespace fs = std::filesystem;
using bb::test::read_file;
using bb::test::run_command;

namespace {

const fs::path kFixtures = BOOKBUILD_PUBLISH_FIXTURES;

// The fixture book copied into `tmp`/book (the tests edit it).
fs::path copy_book(const fs::path& tmp) {
  fs::copy(kFixtures / "named", tmp / "book", fs::copy_options::recursive);
  return tmp / "book";
}

bb::test::RunResult build(const fs::path& book, const fs::path& out, const std::string& env,
                          const std::string& args = "") {
  return run_command(env + " '" BOOKBUILD_EXE "' --book '" + book.string() + "' --out '" + out.string() +
                     "' build " + args);
}

std::string fake_xelatex(const fs::path& runs) {
  return "BOOKBUILD_XELATEX='" BOOKBUILD_FAKE_XELATEX "' FAKE_XELATEX_RUNS='" + runs.string() + "'";
}

int lines(const fs::path& file) {
  std::string text = read_file(file);
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST(Publish, DownloadNamesRejectedWithTheirPlace) {
  auto r = bb::test::run_bookbuild("--book '" + (kFixtures / "config" / "bad-download-name").string() +
                                   "' check parse");
  EXPECT_NE(r.exit_code, 0);
  std::string errors;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);)
    if (line.find(": error: ") != std::string::npos) errors += line + "\n";
  EXPECT_EQ(errors, read_file(kFixtures / "config" / "bad-download-name" / "expected.txt"));
}

// Every output and every link carries the download name; build.json lists each file written with
// its true size and SHA-256.
TEST(Publish, BuildWritesEverythingUnderItsDownloadName) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out";
  auto r = build(book, out, fake_xelatex(tmp.path / "runs"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"epub/Small-Book.epub", "epub/Small-Book-EN.epub", "pdf/Small-Book.pdf",
                        "pdf/Small-Book-EN.pdf", "site/downloads/Small-Book-EN.pdf", "site/index.html"})
    EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  const std::string home = read_file(out / "site" / "en" / "index.html");
  EXPECT_NE(home.find("downloads/Small-Book-EN.epub"), std::string::npos);
  EXPECT_NE(home.find("downloads/Small-Book-EN.pdf"), std::string::npos);

  auto record = nlohmann::json::parse(read_file(out / "build.json"));
  EXPECT_EQ(record["editions"], nlohmann::json({"zh", "en"}));
  EXPECT_FALSE(record["bookbuild"]["version"].get<std::string>().empty());
  std::set<std::string> jobs;
  for (const auto& j : record["jobs"]) jobs.insert(j["job"].get<std::string>());
  for (const char* j : {"load", "latex zh", "pdf en", "epub zh", "site"}) EXPECT_TRUE(jobs.count(j)) << j;
  std::set<std::string> paths;
  for (const auto& f : record["files"]) {
    const std::string path = f["path"];
    paths.insert(path);
    const std::string bytes = read_file(out / path);
    EXPECT_EQ(f["bytes"].get<std::size_t>(), bytes.size()) << path;
    EXPECT_EQ(f["sha256"].get<std::string>(), bb::text::sha256_hex(bytes)) << path;
  }
  for (const char* p : {"pdf/Small-Book.pdf", "epub/Small-Book-EN.epub", "site/index.html"})
    EXPECT_TRUE(paths.count(p)) << p;
}

// latexmk's rule, and an unchanged book typesets nothing: 2 passes from nothing (the .aux appears,
// then holds), none when unchanged, one after a paragraph edit (the .aux of the last build holds), two
// after a new heading.
TEST(Publish, PdfPassesOnlyWhenNeeded) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out", runs = tmp.path / "runs";
  auto passes = [&](const char* what) {
    fs::remove(runs);
    auto r = build(book, out, fake_xelatex(runs), "--edition en");
    EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
    return fs::exists(runs) ? lines(runs) : 0;
  };
  EXPECT_EQ(passes("first"), 2);
  EXPECT_EQ(passes("unchanged"), 0);
  const fs::path chapter = book / "book-en" / "chapter01.md";
  bb::test::write_file(chapter, read_file(chapter) + "\nA new paragraph.\n");
  EXPECT_EQ(passes("paragraph"), 1);
  bb::test::write_file(chapter, read_file(chapter) + "\n## 1.3 A new section\n\nText.\n");
  EXPECT_EQ(passes("heading"), 2);
  // A PDF changed by hand is not taken for the typeset one.
  bb::test::write_file(out / "pdf" / "Small-Book-EN.pdf", "tampered");
  EXPECT_EQ(passes("tampered"), 1);
}

TEST(Publish, WithoutXelatexTheRestIsBuilt) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out";
  auto r = build(book, out, "BOOKBUILD_XELATEX=/nonexistent/xelatex");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("xelatex not found"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out / "epub" / "Small-Book.epub"));
  EXPECT_TRUE(fs::is_regular_file(out / "site" / "index.html"));
  EXPECT_FALSE(fs::exists(out / "pdf"));
  auto record = nlohmann::json::parse(read_file(out / "build.json"));
  ASSERT_FALSE(record["warnings"].empty());
  EXPECT_NE(record["warnings"][0].get<std::string>().find("xelatex not found"), std::string::npos);
}

TEST(Publish, EditionAndNoPdfNarrowTheBuild) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out", runs = tmp.path / "runs";
  auto r = build(book, out, fake_xelatex(runs), "--edition zh --no-pdf");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(runs));
  EXPECT_TRUE(fs::is_regular_file(out / "epub" / "Small-Book.epub"));
  EXPECT_FALSE(fs::exists(out / "epub" / "Small-Book-EN.epub"));
  EXPECT_EQ(nlohmann::json::parse(read_file(out / "build.json"))["editions"], nlohmann::json({"zh"}));
}

// `init` writes the book workflow of this repository, with its own version filled in.
TEST(Publish, InitWritesTheBookWorkflow) {
  bb::test::TempDir tmp("bb-publish");
  auto r = bb::test::run_bookbuild("-q init '" + (tmp.path / "new").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(tmp.path / "new" / ".github" / "workflows" / "book.yml"),
            read_file(fs::path(BOOKBUILD_SOURCE_DIR) / ".github" / "workflows" / "book.yml"));
}
