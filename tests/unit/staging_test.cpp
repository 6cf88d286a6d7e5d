// Output staging: a failed build leaves the previous output untouched; a good one replaces it whole.
#include "output/staging.hpp"
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

}  // namespace
}  // namespace bb::output
