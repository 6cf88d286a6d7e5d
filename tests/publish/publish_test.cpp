// `bookbuild build` and what it publishes: the download names of book.toml in every output and link,
// the build record, the missing-XeLaTeX path, and the incremental PDF (passes counted by a stand-in
// xelatex, fake-xelatex.sh, so that these run in seconds without TeX).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
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
  // The output (check keeps parsed chapters there) goes outside the fixture.
  bb::test::TempDir out("bb-download-names");
  auto r = bb::test::run_bookbuild("--book '" + (kFixtures / "config" / "bad-download-name").string() +
                                   "' --out '" + out.path.string() + "' check parse");
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

// Asked for the PDFs without XeLaTeX, `build` fails at the book's configuration, naming what to
// install, and writes nothing; --no-pdf builds the rest.
TEST(Publish, WithoutXelatexTheBuildFails) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out";
  auto r = build(book, out, "BOOKBUILD_XELATEX=/nonexistent/xelatex");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("book.toml:1:1: error: xelatex not found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("texlive-xetex"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--no-pdf"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out / "epub"));
  EXPECT_FALSE(fs::exists(out / "site"));
  EXPECT_FALSE(fs::exists(out / "build.json"));

  r = build(book, out, "BOOKBUILD_XELATEX=/nonexistent/xelatex", "--no-pdf");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out / "epub" / "Small-Book.epub"));
  EXPECT_TRUE(fs::is_regular_file(out / "site" / "index.html"));
  EXPECT_FALSE(fs::exists(out / "pdf"));
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

namespace {

// `init --workflow` in `book` (extra arguments after it); the workflow it wrote, or "".
bb::test::RunResult init_workflow(const fs::path& book, const std::string& args = "") {
  return bb::test::run_bookbuild("-q init --workflow '" + book.string() + "' " + args);
}

fs::path workflow_of(const fs::path& book) {
  return book / ".github" / "workflows" / "book.yml";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The book workflow checker (check_workflows.py --book-workflow) holds for `file` (where Python is).
void expect_workflow_holds(const fs::path& file) {
  if (std::string(BOOKBUILD_SYSTEM_PYTHON).empty()) return;
  auto r = run_command("'" BOOKBUILD_SYSTEM_PYTHON "' '" BOOKBUILD_SOURCE_DIR
                       "/tests/publish/check_workflows.py' '" BOOKBUILD_SOURCE_DIR "' --book-workflow '" +
                       file.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace

// This repository's book workflow is the one `init --workflow` writes from its book.toml: one source.
TEST(Publish, RepositoryWorkflowIsWhatInitWrites) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path src = BOOKBUILD_SOURCE_DIR, book = tmp.path / "book";
  fs::create_directories(book);
  fs::copy_file(src / "book.toml", book / "book.toml");
  for (const char* d : {"manuscripts", "book-en", "book-zh-tw", "book-ru", "templates", "filters"})
    if (fs::exists(src / d)) fs::copy(src / d, book / d, fs::copy_options::recursive);
  auto r = init_workflow(book);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(workflow_of(book)), read_file(src / ".github" / "workflows" / "book.yml"))
      << "run `bookbuild init --workflow --force` and commit .github/workflows/book.yml";
}

// A new book gets the workflow too, filled from its scaffold: its download names, this bookbuild's commit.
TEST(Publish, InitWritesTheBookWorkflow) {
  bb::test::TempDir tmp("bb-publish");
  auto r = bb::test::run_bookbuild("-q init '" + (tmp.path / "new").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string wf = read_file(workflow_of(tmp.path / "new"));
  EXPECT_TRUE(has(wf, "pdf/new-en.pdf")) << wf;
  EXPECT_TRUE(has(wf, "epub/new-en.epub")) << wf;
  EXPECT_TRUE(has(wf, "fetch -q --depth 1 'https://github.com/bookbuild/bookbuild'")) << wf;
  EXPECT_FALSE(std::regex_search(wf, std::regex("@[A-Z_]+@"))) << wf;
  expect_workflow_holds(workflow_of(tmp.path / "new"));
}

// The real book's layout, without book.toml: its download names, its tag of Beijing time; never
// overwritten without --force.
TEST(Publish, InitWorkflowInTheRealLayout) {
  const fs::path corpus = BOOKBUILD_CORPUS_DIR;
  if (!fs::is_directory(corpus / "upstream")) GTEST_SKIP() << "no corpus at " << corpus;
  bb::test::TempDir tmp("bb-publish");
  fs::copy(corpus / "upstream", tmp.path / "upstream", fs::copy_options::recursive);
  fs::copy(corpus / "zh-tw", tmp.path / "zh-tw", fs::copy_options::recursive);
  auto r = init_workflow(tmp.path / "upstream");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string wf = read_file(workflow_of(tmp.path / "upstream"));
  for (const char* f : {"pdf/AI-Infra-Book.pdf", "pdf/AI-Infra-Book-EN.pdf", "epub/AI-Infra-Book.epub",
                        "epub/AI-Infra-Book-EN.epub", "TZ='Asia/Shanghai' date +'build-%Y%m%d-%H%M%S'"})
    EXPECT_TRUE(has(wf, f)) << f;
  EXPECT_FALSE(has(wf, "\n            build.json\n")) << wf;
  expect_workflow_holds(workflow_of(tmp.path / "upstream"));
  r = init_workflow(tmp.path / "zh-tw");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(read_file(workflow_of(tmp.path / "zh-tw")), "pdf/AI-Infra-Book-ZH-TW.pdf"));

  bb::test::write_file(workflow_of(tmp.path / "zh-tw"), "mine\n");
  r = init_workflow(tmp.path / "zh-tw");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "book.yml: error: already exists")) << r.err;
  EXPECT_EQ(read_file(workflow_of(tmp.path / "zh-tw")), "mine\n");
  r = init_workflow(tmp.path / "zh-tw", "--force");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(read_file(workflow_of(tmp.path / "zh-tw")), "pdf/AI-Infra-Book-ZH-TW.pdf"));
}

// [publish] in book.toml: a .deb checked against its SHA-256, build.json shipped, only the EPUBs.
TEST(Publish, PublishSettingsFillTheWorkflow) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path);
  const std::string sha(64, 'a');
  bb::test::write_file(book / "book.toml",
                       read_file(book / "book.toml") +
                           "\n[publish]\ntag = \"v%Y.%m.%d-%H%M\"\ntitle = \"出版 %Y-%m-%d\"\n"
                           "time-zone = \"Europe/Moscow\"\nassets = [\"epub\"]\n"
                           "build-json = true\nbookbuild-deb = \"https://example.org/b.deb\"\n"
                           "bookbuild-sha256 = \"" +
                           sha + "\"\n");
  auto r = init_workflow(book);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string wf = read_file(workflow_of(book));
  EXPECT_TRUE(has(wf, "curl -fsSL --retry 3 -o \"$deb\" 'https://example.org/b.deb'")) << wf;
  EXPECT_TRUE(has(wf, "echo '" + sha + "  '\"$deb\" | sha256sum -c -")) << wf;
  EXPECT_TRUE(has(wf, "TZ='Europe/Moscow' date +'v%Y.%m.%d-%H%M'")) << wf;
  EXPECT_TRUE(has(wf, "date +'出版 %Y-%m-%d'")) << wf;
  EXPECT_TRUE(has(wf, "epub/Small-Book-EN.epub\n")) << wf;
  EXPECT_TRUE(has(wf, "\n            build.json\n")) << wf;
  EXPECT_FALSE(has(wf, "pdf/Small-Book")) << wf;
  EXPECT_TRUE(has(wf, "echo '- 简体中文:' \"[Small-Book.epub](")) << wf;
  expect_workflow_holds(workflow_of(book));
}

TEST(Publish, PublishSettingsRejectedWithTheirPlace) {
  bb::test::TempDir tmp("bb-publish");
  fs::copy(kFixtures / "config" / "bad-publish", tmp.path / "book", fs::copy_options::recursive);
  auto r = init_workflow(tmp.path / "book");
  EXPECT_EQ(r.exit_code, 1);
  std::string errors;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);)
    if (has(line, ": error: ")) errors += line + "\n";
  EXPECT_EQ(errors, read_file(kFixtures / "config" / "bad-publish" / "expected.txt"));
  EXPECT_FALSE(fs::exists(workflow_of(tmp.path / "book")));
}

// `build --lfs-include`: the files the build reads, a figure the text shows among them, a file no
// chapter uses not; what `git lfs pull --include` takes, relative to the book's root.
TEST(Publish, LfsIncludeListsWhatTheBuildReads) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path);
  const std::string svg = R"(<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>)";
  bb::test::write_file(book / "book-en" / "img" / "used.svg", svg);
  bb::test::write_file(book / "book-en" / "img" / "unused.svg", svg);
  bb::test::write_file(book / "book-en" / "chapter01.md",
                       read_file(book / "book-en" / "chapter01.md") + "\n![A figure](img/used.svg)\n");
  auto r = bb::test::run_bookbuild("--book '" + book.string() + "' build --lfs-include");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> listed;
  std::istringstream in(r.out.substr(0, r.out.find('\n')));
  for (std::string p; std::getline(in, p, ',');) listed.insert(p);
  for (const char* f : {"book-en/img/used.svg", "book-en/chapter01.md", "book-en/introduction.md",
                        "manuscripts/00-前言.md", "book.toml"})
    EXPECT_TRUE(listed.count(f)) << f << " not in " << r.out;
  EXPECT_FALSE(listed.count("book-en/img/unused.svg")) << r.out;
  for (const auto& p : listed) {
    if (p.find('*') == std::string::npos) {
      EXPECT_TRUE(fs::exists(book / p)) << p;
    }
  }
}

// `check site epub` checks both outputs of a build in one run, and fails when either fails.
TEST(Publish, CheckSeveralOutputsAtOnce) {
  bb::test::TempDir tmp("bb-publish");
  const fs::path book = copy_book(tmp.path), out = tmp.path / "out";
  ASSERT_EQ(build(book, out, "", "--no-pdf").exit_code, 0);
  const std::string check =
      "--book '" + book.string() + "' --out '" + out.string() + "' check site epub --no-epubcheck";
  auto r = bb::test::run_bookbuild(check);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "site: ")) << r.out;
  EXPECT_TRUE(has(r.err, "check epub: 2 EPUB(s)")) << r.err;
  bb::test::write_file(out / "epub" / "Small-Book.epub", "not a zip");
  EXPECT_NE(bb::test::run_bookbuild(check).exit_code, 0);
}
