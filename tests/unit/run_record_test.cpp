// Run records (builder/inputs/record.hpp), end to end on the executable: a run whose inputs and
// outputs are as the last successful run left them prints the same and writes nothing; any change to
// a file the run read, to a path it looked for, or to what it wrote builds again, and gives exactly
// what a build without records gives.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <vector>

#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

const char* const kJobs[] = {"site", "epub --all", "latex"};

// Every file of the copy gets the same time, an hour ago: old enough to be relied on (a record
// ignores files changed in the last two seconds), and the same before and after an edit, so that
// the record must see the edit by the file's size, inode or change time.
const std::time_t kOld = std::time(nullptr) - 3600;

void backdate(const fs::path& p) {
  const struct timespec times[2] = {{kOld, 0}, {kOld, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << p;
}

void backdate_tree(const fs::path& root) {
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) backdate(e.path());
}

struct Book {
  test::TempDir dir{"bb-record"};
  fs::path book = dir.path / "book";
  Book() {
    fs::copy(test::fixtures() / "books" / "record", book, fs::copy_options::recursive);
    backdate_tree(book);
  }
};

test::RunResult build(const fs::path& book, const fs::path& out, const std::string& job,
                      const std::string& env = "") {
  // Records on (test_support.hpp turns them off for every other test); `env` may say otherwise.
  return test::run_command("BOOKBUILD_RUN_RECORD=on " + env + " '" BOOKBUILD_EXE "' --book '" +
                           book.string() + "' --out '" + out.string() + "' " + job);
}

// An output folder's files and their bytes, without the cache.
std::map<std::string, std::string> outputs(const fs::path& out) {
  std::map<std::string, std::string> files;
  if (!fs::exists(out)) return files;
  for (auto it = fs::recursive_directory_iterator(out); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".cache") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file())
      files[fs::relative(it->path(), out).generic_string()] = test::read_file(it->path());
  }
  return files;
}

// Where every output file is on disk and when it was last written.
std::map<std::string, std::pair<ino_t, std::int64_t>> identities(const fs::path& out) {
  std::map<std::string, std::pair<ino_t, std::int64_t>> ids;
  for (const auto& [rel, bytes] : outputs(out)) {
    struct stat st {};
    EXPECT_EQ(::stat((out / rel).c_str(), &st), 0);
    ids[rel] = {st.st_ino, std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  }
  return ids;
}

bool replayed(const test::RunResult& r) {
  return r.err.find("run record: nothing changed") != std::string::npos;
}

// The warm folder's run of `job` against a build without records into a folder of its own: the same
// exit code, the same messages (paths are the book's) and the same files.
// Each command has output folders of its own here: what one command reads of another's outputs (the
// site's downloads) is tested on its own.
fs::path job_folder(const fs::path& out, const std::string& job) {
  return out / job.substr(0, job.find(' '));
}

void expect_same_as_without_records(const fs::path& book, const fs::path& warm_out, const fs::path& plain_out,
                                    const std::string& job, const std::string& change) {
  const fs::path warm = job_folder(warm_out, job), plain = job_folder(plain_out, job);
  const auto w = build(book, warm, "-q " + job);
  const auto p = build(book, plain, "-q " + job, "BOOKBUILD_RUN_RECORD=0");
  EXPECT_EQ(w.exit_code, p.exit_code) << job << " after " << change;
  EXPECT_EQ(w.err, p.err) << job << " after " << change;
  if (w.exit_code != 0) return;  // nothing was written by either (the warm folder keeps its last build)
  const std::string folder = job.substr(0, job.find(' '));  // site, epub, latex
  const auto a = outputs(warm / folder), b = outputs(plain / folder);
  std::string differ;
  // An EPUB under another name (the book's name changed) stays from the earlier build in both folders.
  for (const auto& [rel, bytes] : a)
    if ((!b.contains(rel) && folder != "epub") || (b.contains(rel) && b.at(rel) != bytes))
      differ += " " + rel;
  for (const auto& [rel, bytes] : b)
    if (!a.contains(rel)) differ += " " + rel;
  EXPECT_EQ(differ, "") << job << " after " << change;
}

TEST(RunRecord, AnUnchangedRunPrintsTheSameAndWritesNothing) {
  Book b;
  const fs::path out = b.dir.path / "out";
  for (const char* job : kJobs) {
    const auto first = build(b.book, out, job);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    const auto files = outputs(out);
    const auto ids = identities(out);
    const auto again = build(b.book, out, job, "BOOKBUILD_RUN_RECORD=explain");
    EXPECT_TRUE(replayed(again)) << job << ": " << again.err;
    const auto third = build(b.book, out, job);
    EXPECT_EQ(third.exit_code, 0);
    EXPECT_EQ(third.out, first.out) << job;
    EXPECT_EQ(third.err, first.err) << job << ": a replay prints what the run printed";
    EXPECT_EQ(outputs(out), files) << job;
    EXPECT_EQ(identities(out), ids) << job << ": nothing is written again";
  }
}

TEST(RunRecord, ARecentlyChangedInputWritesNoRecord) {
  Book b;
  const fs::path chapter = b.book / "book-en" / "chapter01.md";
  test::write_file(chapter, test::read_file(chapter) + "\nJust written.\n");  // its time is now
  const fs::path out = b.dir.path / "out";
  const auto first = build(b.book, out, "-q latex", "BOOKBUILD_RUN_RECORD=explain");
  EXPECT_NE(first.err.find("run record: not written: "), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("chapter01.md"), std::string::npos) << first.err;
  const auto second = build(b.book, out, "-q latex", "BOOKBUILD_RUN_RECORD=explain");
  EXPECT_FALSE(replayed(second)) << second.err;
}

TEST(RunRecord, AnotherCommandLineOrEnvironmentBuildsAgain) {
  Book b;
  const fs::path out = b.dir.path / "out";
  ASSERT_EQ(build(b.book, out, "-q epub --edition en").exit_code, 0);
  EXPECT_TRUE(replayed(build(b.book, out, "-q epub --edition en", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_FALSE(replayed(build(b.book, out, "-q epub --edition zh", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_TRUE(replayed(build(b.book, out, "-q epub --edition en", "BOOKBUILD_RUN_RECORD=explain")))
      << "each command line keeps its own record";
  EXPECT_FALSE(replayed(build(b.book, out, "-q epub --edition en",
                              "SOURCE_DATE_EPOCH=1700000000 BOOKBUILD_RUN_RECORD=explain")));
}

// The LaTeX and site folders hard-link the book's figures: a build into another folder (or removing
// one) links or unlinks them again, which changes their change time but not what they are.
TEST(RunRecord, LinksToTheFiguresMadeElsewhereAreNoChange) {
  Book b;
  const fs::path out = b.dir.path / "out", other = b.dir.path / "other";
  for (const char* job : {"-q latex", "-q site"}) {
    ASSERT_EQ(build(b.book, out, job).exit_code, 0);
    ASSERT_EQ(build(b.book, other, job).exit_code, 0);
    fs::remove_all(other);
    EXPECT_TRUE(replayed(build(b.book, out, job, "BOOKBUILD_RUN_RECORD=explain"))) << job;
  }
}

// Every file of the book edited in turn (its time kept), then removed in turn from a fresh copy: the
// run with records builds what a run without them builds, for every command.
TEST(RunRecord, EveryChangedOrRemovedInputBuildsAgainAsWithoutRecords) {
  Book b;
  const fs::path warm = b.dir.path / "warm", plain = b.dir.path / "plain";
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(b.book))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), b.book));
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  for (const char* job : kJobs)
    ASSERT_EQ(build(b.book, job_folder(warm, job), std::string("-q ") + job).exit_code, 0);

  for (const auto& rel : files) {
    const fs::path f = b.book / rel;
    std::string bytes = test::read_file(f);
    const std::string ext = f.extension().string();
    if (ext == ".md")
      bytes += "\nA paragraph added to " + rel.filename().string() + ".\n";
    else if (ext == ".svg")
      bytes += "<!-- edited -->\n";
    else if (ext == ".toml")
      bytes += "\n[book.unknown-key-added]\n";
    else if (ext == ".json")
      bytes = bytes.substr(0, bytes.rfind('}')) + ",\n  \"edited\": true\n}\n";
    else
      bytes += std::string("\0edited", 7);
    test::write_file(f, bytes);
    backdate(f);
    for (const char* job : kJobs)
      expect_same_as_without_records(b.book, warm, plain, job, "editing " + rel.string());
  }

  for (const auto& rel : files) {
    Book fresh;
    const fs::path w = fresh.dir.path / "warm", p = fresh.dir.path / "plain";
    for (const char* job : kJobs)
      ASSERT_EQ(build(fresh.book, job_folder(w, job), std::string("-q ") + job).exit_code, 0);
    fs::remove(fresh.book / rel);
    for (const char* job : kJobs)
      expect_same_as_without_records(fresh.book, w, p, job, "removing " + rel.string());
  }
}

// Paths the book looked for and did not find, and files that appear where a build picks them up.
TEST(RunRecord, AFileThatAppearsBuildsAgain) {
  const std::vector<std::pair<fs::path, std::string>> added = {
      {"notes/measurements.md", "# Measurements\n"},  // a link target that was missing
      {"book-en/cover.png", ""},                      // an edition's default cover (EPUB)
      {"manuscripts/img/extra.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"},
  };
  for (const auto& [rel, content] : added) {
    Book b;
    const fs::path w = b.dir.path / "warm", p = b.dir.path / "plain";
    for (const char* job : kJobs)
      ASSERT_EQ(build(b.book, job_folder(w, job), std::string("-q ") + job).exit_code, 0);
    test::write_file(b.book / rel,
                     content.empty() ? test::read_file(b.book / "book-en" / "img" / "flow.png") : content);
    backdate(b.book / rel);
    for (const char* job : kJobs) expect_same_as_without_records(b.book, w, p, job, "adding " + rel.string());
  }
}

// The site links the EPUBs found in <out>/epub: an EPUB written (or rewritten) since is a change.
TEST(RunRecord, AnEpubWrittenSinceIsANewDownloadOfTheSite) {
  Book b;
  const fs::path out = b.dir.path / "out", plain = b.dir.path / "plain";
  ASSERT_EQ(build(b.book, out, "-q site").exit_code, 0);
  EXPECT_FALSE(outputs(out / "site").contains("downloads/mini-en.epub"));
  ASSERT_EQ(build(b.book, out, "-q epub --edition en").exit_code, 0);
  EXPECT_FALSE(replayed(build(b.book, out, "-q site", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_TRUE(outputs(out / "site").contains("downloads/mini-en.epub"));
  ASSERT_EQ(build(b.book, plain, "-q epub --edition en", "SOURCE_DATE_EPOCH=1700000000").exit_code, 0);
  fs::copy_file(plain / "epub" / "mini-en.epub", out / "epub" / "mini-en.epub",
                fs::copy_options::overwrite_existing);
  EXPECT_FALSE(replayed(build(b.book, out, "-q site", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_EQ(outputs(out / "site").at("downloads/mini-en.epub"),
            test::read_file(plain / "epub" / "mini-en.epub"));
}

TEST(RunRecord, AnOutputChangedOrRemovedBuildsAgain) {
  Book b;
  const fs::path out = b.dir.path / "out", plain = b.dir.path / "plain";
  ASSERT_EQ(build(b.book, out, "-q site").exit_code, 0);
  ASSERT_EQ(build(b.book, plain, "-q site", "BOOKBUILD_RUN_RECORD=0").exit_code, 0);
  ASSERT_TRUE(fs::remove(out / "site" / "en" / "ch01.html"));
  EXPECT_FALSE(replayed(build(b.book, out, "-q site", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_EQ(outputs(out / "site"), outputs(plain / "site"));

  // The same size and time, other bytes: the change time gives it away.
  const fs::path page = out / "site" / "index.html";
  struct stat before {};
  ASSERT_EQ(::stat(page.c_str(), &before), 0);
  std::string bytes = test::read_file(page);
  bytes[bytes.size() / 2] ^= 0x20;
  {
    std::fstream f(page, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(bytes.size() / 2));
    f.write(&bytes[bytes.size() / 2], 1);
  }
  const struct timespec times[2] = {{0, UTIME_OMIT}, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, page.c_str(), times, 0), 0);
  EXPECT_FALSE(replayed(build(b.book, out, "-q site", "BOOKBUILD_RUN_RECORD=explain")));
  EXPECT_EQ(outputs(out / "site"), outputs(plain / "site"));
}

}  // namespace
}  // namespace bb
