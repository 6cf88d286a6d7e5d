// Output staging: a failed build leaves the previous output untouched; a good one replaces it whole.
#include "output/staging.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include "test_support.hpp"

namespace bb::output {
namespace {

namespace fs = std::filesystem;

TEST(StagedDir, CommitReplacesTheWholeFolder) {
  fs::path root = fs::temp_directory_path() / ("bb-stage-" + std::to_string(::getpid()));
  fs::remove_all(root);
  test::write_file(root / "site" / "old.html", "old");
  {
    StagedDir s(root / "site");
    write_file(s.path() / "new.html", "new");
    EXPECT_TRUE(fs::exists(root / "site" / "old.html"));  // nothing visible before commit
    s.commit();
  }
  EXPECT_TRUE(fs::exists(root / "site" / "new.html"));
  EXPECT_FALSE(fs::exists(root / "site" / "old.html"));
  EXPECT_EQ(std::distance(fs::directory_iterator(root), fs::directory_iterator()), 1);  // no leftovers
  fs::remove_all(root);
}

TEST(StagedDir, AbandonedBuildLeavesPreviousOutput) {
  fs::path root = fs::temp_directory_path() / ("bb-stage2-" + std::to_string(::getpid()));
  fs::remove_all(root);
  test::write_file(root / "site" / "index.html", "previous");
  try {
    StagedDir s(root / "site");
    write_file(s.path() / "index.html", "half");
    throw std::runtime_error("build failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(test::read_file(root / "site" / "index.html"), "previous");
  EXPECT_EQ(std::distance(fs::directory_iterator(root), fs::directory_iterator()), 1);
  fs::remove_all(root);
}

TEST(WriteFileAtomic, ReplacesContent) {
  fs::path f = fs::temp_directory_path() / ("bb-atomic-" + std::to_string(::getpid()) + ".txt");
  write_file_atomic(f, "one");
  write_file_atomic(f, "two");
  EXPECT_EQ(test::read_file(f), "two");
  fs::remove(f);
}

// The id of a process that has exited: what a killed build's temporary files are named after.
pid_t dead_pid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

// What killed builds left in a folder goes with the first write into it, whatever file it was for;
// the temporary files of running processes (this one) and other hidden files stay.
TEST(WriteFileAtomic, RemovesWhatKilledBuildsLeftInTheFolder) {
  fs::path dir = fs::temp_directory_path() / ("bb-atomic-stale-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string dead = std::to_string(dead_pid());
  const std::string alive = std::to_string(::getpid());
  test::write_file(dir / (".page.html.tmp-" + dead), "half");
  test::write_file(dir / (".v1.2.html.tmp-" + dead), "half");
  test::write_file(dir / (".figures.old-" + dead) / "a.png", "old");
  test::write_file(dir / (".page.html.tmp-" + alive), "being written");
  test::write_file(dir / ".hidden", "kept");
  test::write_file(dir / (".page.html.new-" + dead), "not ours");
  write_file_atomic(dir / "other.html", "new");
  EXPECT_FALSE(fs::exists(dir / (".page.html.tmp-" + dead)));
  EXPECT_FALSE(fs::exists(dir / (".v1.2.html.tmp-" + dead)));
  EXPECT_FALSE(fs::exists(dir / (".figures.old-" + dead)));
  EXPECT_TRUE(fs::exists(dir / (".page.html.tmp-" + alive)));
  EXPECT_TRUE(fs::exists(dir / ".hidden"));
  EXPECT_TRUE(fs::exists(dir / (".page.html.new-" + dead)));
  EXPECT_EQ(test::read_file(dir / "other.html"), "new");
  fs::remove_all(dir);
}

// Before a staged folder replaces `site`, only `site`'s own leftovers are removed.
TEST(RemoveStaleSiblings, RemovesOnlyTheTargetsOwn) {
  fs::path dir = fs::temp_directory_path() / ("bb-stale-siblings-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string dead = std::to_string(dead_pid());
  test::write_file(dir / (".site.tmp-" + dead) / "index.html", "half");
  test::write_file(dir / (".site.old-" + dead) / "index.html", "old");
  test::write_file(dir / (".epub.tmp-" + dead) / "book.epub", "half");
  remove_stale_siblings(dir / "site");
  EXPECT_FALSE(fs::exists(dir / (".site.tmp-" + dead)));
  EXPECT_FALSE(fs::exists(dir / (".site.old-" + dead)));
  EXPECT_TRUE(fs::exists(dir / (".epub.tmp-" + dead)));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bb::output
