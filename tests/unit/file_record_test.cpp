// The record of an output folder's files (output::FileRecord): a file it vouches for is not read, and
// any doubt — another identity, other bytes, a damaged record, a file changed too recently — falls
// back to reading the file, so that no stale page is ever kept.
#include "output/file_record.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "output/staging.hpp"
#include "site/site_output.hpp"
#include "test_support.hpp"

namespace bb::output {
namespace {

namespace fs = std::filesystem;

// A margin under which every file counts as settled: the tests need not wait two seconds for the
// files they have just written.
constexpr std::int64_t kNoWait = -1'000'000'000;

struct Folder {
  fs::path root = fs::temp_directory_path() / ("bb-record-" + std::to_string(::getpid()));
  fs::path site = root / "site";
  Folder() {
    fs::remove_all(root);
    fs::create_directories(site);
  }
  ~Folder() { fs::remove_all(root); }
};

// Changes the bytes of `file` in place (same inode, same size) and gives it back its modification time,
// as `touch -r` would: only its ctime tells.
void tamper(const fs::path& file, const std::string& bytes) {
  const auto mtime = fs::last_write_time(file);
  struct stat before {};
  ASSERT_EQ(::stat(file.c_str(), &before), 0);
  ASSERT_EQ(fs::file_size(file), bytes.size());
  {
    std::ofstream out(file, std::ios::binary | std::ios::in | std::ios::out);  // no new inode
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  fs::last_write_time(file, mtime);
  struct stat after {};
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  ASSERT_EQ(after.st_ino, before.st_ino);
}

// Writes `rel` with `bytes` and records it, as a build that found it unchanged would.
void recorded(const Folder& f, const std::string& rel, const std::string& bytes) {
  test::write_file(f.site / rel, bytes);
  FileRecord r(f.site, kNoWait);
  EXPECT_TRUE(r.holds(rel, bytes));
  r.save();
}

TEST(FileRecord, AFileItVouchesForIsNotRead) {
  Folder f;
  test::write_file(f.site / "a.html", "alpha");
  {
    FileRecord r(f.site, kNoWait);
    EXPECT_TRUE(r.holds("a.html", "alpha"));
    EXPECT_EQ(r.files_read(), 1U);  // nothing recorded yet
    r.save();
  }
  ASSERT_TRUE(fs::exists(FileRecord::record_file(f.site)));
  FileRecord r(f.site, kNoWait);
  EXPECT_TRUE(r.holds("a.html", "alpha"));
  EXPECT_EQ(r.files_read(), 0U);
  EXPECT_EQ(r.files_trusted(), 1U);
  // Other bytes are never vouched for: read back, they differ.
  EXPECT_FALSE(r.holds("a.html", "alphA"));
  EXPECT_EQ(r.files_read(), 1U);
  EXPECT_FALSE(r.holds("a.html", "alphabet"));  // another size: not even read
  EXPECT_EQ(r.files_read(), 1U);
}

TEST(FileRecord, AFileEditedByHandIsReadAgainEvenWithItsTimeRestored) {
  Folder f;
  recorded(f, "a.html", "alpha");
  tamper(f.site / "a.html", "ALPHA");
  FileRecord r(f.site, kNoWait);
  EXPECT_FALSE(r.holds("a.html", "alpha"));
  EXPECT_EQ(r.files_read(), 1U);
  EXPECT_EQ(r.files_trusted(), 0U);
}

TEST(FileRecord, AFileReplacedByAnotherInodeIsRead) {
  Folder f;
  recorded(f, "a.html", "alpha");
  test::write_file(f.site / "other", "alpha");
  fs::rename(f.site / "other", f.site / "a.html");
  FileRecord r(f.site, kNoWait);
  EXPECT_TRUE(r.holds("a.html", "alpha"));
  EXPECT_EQ(r.files_read(), 1U);
  EXPECT_EQ(r.files_trusted(), 0U);
  // A symbolic link in its place is never a match, recorded or not.
  fs::remove(f.site / "a.html");
  test::write_file(f.root / "elsewhere", "alpha");
  fs::create_symlink(f.root / "elsewhere", f.site / "a.html");
  EXPECT_FALSE(r.holds("a.html", "alpha"));
}

TEST(FileRecord, ADamagedRecordIsIgnored) {
  Folder f;
  recorded(f, "a.html", "alpha");
  const fs::path file = FileRecord::record_file(f.site);
  const std::string good = test::read_file(file);
  ASSERT_FALSE(good.empty());
  for (const std::string& bad : {good.substr(0, good.size() - 1), good.substr(0, 12), std::string(),
                                 good.substr(0, 20) + char(good[20] ^ 1) + good.substr(21)}) {
    test::write_file(file, bad);
    FileRecord r(f.site, kNoWait);
    EXPECT_TRUE(r.holds("a.html", "alpha"));
    EXPECT_EQ(r.files_read(), 1U) << bad.size() << " bytes of " << good.size();
  }
}

TEST(FileRecord, AFileChangedRecentlyIsNotRecorded) {
  Folder f;
  test::write_file(f.site / "a.html", "alpha");
  {
    // A margin of an hour: the file just written could still change within its timestamps' tick.
    FileRecord r(f.site, std::int64_t{3600} * 1'000'000'000);
    EXPECT_TRUE(r.holds("a.html", "alpha"));
    r.save();
  }
  FileRecord r(f.site, kNoWait);
  EXPECT_TRUE(r.holds("a.html", "alpha"));
  EXPECT_EQ(r.files_read(), 1U);
}

TEST(FileRecord, OnlyTheFilesAskedAboutAreKept) {
  Folder f;
  test::write_file(f.site / "a.html", "alpha");
  test::write_file(f.site / "b.html", "bravo");
  {
    FileRecord r(f.site, kNoWait);
    EXPECT_TRUE(r.holds("a.html", "alpha"));
    EXPECT_TRUE(r.holds("b.html", "bravo"));
    r.save();
  }
  {
    FileRecord r(f.site, kNoWait);  // b.html is no longer part of the site
    EXPECT_TRUE(r.holds("a.html", "alpha"));
    r.save();
  }
  FileRecord r(f.site, kNoWait);
  EXPECT_TRUE(r.holds("b.html", "bravo"));
  EXPECT_EQ(r.files_read(), 1U);
}

// Through the site's writer: after a build that changed nothing the record vouches for the pages; a
// page edited by hand afterwards (same size, modification time put back) is still written again.
TEST(FileRecord, TheSiteRewritesAPageEditedByHand) {
  Folder f;
  const std::map<std::string, std::string> pages = {{"a.html", "alpha"}, {"en/b.html", "bravo"}};
  for (int build = 0; build < 2; ++build) {
    site::SiteUpdate update(f.site, kNoWait);
    update.add_generated(pages);
    EXPECT_EQ(update.commit(), build == 0);  // the second build leaves the folder as it is
  }
  {
    FileRecord r(f.site, kNoWait);
    EXPECT_TRUE(r.holds("en/b.html", "bravo"));
    EXPECT_EQ(r.files_trusted(), 1U);
  }
  tamper(f.site / "en" / "b.html", "BRAVO");
  {
    site::SiteUpdate update(f.site, kNoWait);
    update.add_generated(pages);
    EXPECT_TRUE(update.commit());
  }
  EXPECT_EQ(test::read_file(f.site / "en" / "b.html"), "bravo");
  EXPECT_EQ(test::read_file(f.site / "a.html"), "alpha");
  // That build staged every file anew (new links change ctimes): it left no record behind.
  EXPECT_FALSE(fs::exists(FileRecord::record_file(f.site)));
}

}  // namespace
}  // namespace bb::output
