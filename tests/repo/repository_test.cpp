// The repository lookup (builder/repo) on real repositories made with `git` in a scratch folder: a
// plain work tree, a packed one, a linked work tree, a submodule, a detached HEAD, an unborn branch,
// none at all, and one whose objects live elsewhere (alternates, which the lookup must not follow); and
// the revisions `bookbuild diff` reads (repo/revision_tree.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "repo/repository.hpp"
#include "repo/revision_tree.hpp"

namespace fs = std::filesystem;
using bb::repo::find_repository;

namespace {

class RepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("bb-repo-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    // The commits' times are fixed; no user configuration is read.
    ::setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    ::setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    ::setenv("GIT_AUTHOR_NAME", "t", 1);
    ::setenv("GIT_AUTHOR_EMAIL", "t@example.org", 1);
    ::setenv("GIT_COMMITTER_NAME", "t", 1);
    ::setenv("GIT_COMMITTER_EMAIL", "t@example.org", 1);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Runs `git ARGS` in `dir` (quiet), failing the test when git fails; returns its first output line.
  std::string git(const fs::path& dir, const std::string& args) {
    const fs::path out = root_ / "git.out";
    const std::string cmd = "cd '" + dir.string() +
                            "' && git -c init.defaultBranch=main -c protocol.file.allow=always " + args +
                            " >'" + out.string() + "' 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    std::string line;
    std::getline(in, line);
    return line;
  }

  // A repository at `dir` with `n` commits (committer times 1700000000, +100, …) of a growing file.
  void make_repo(const fs::path& dir, int n) {
    fs::create_directories(dir / "book");
    git(dir, "init -q");
    for (int i = 0; i < n; ++i) {
      std::ofstream(dir / "book" / "chapter.md", std::ios::app) << "Line " << i << " of the chapter.\n";
      const std::string date = std::to_string(1700000000 + 100 * i) + " +0100";
      ::setenv("GIT_COMMITTER_DATE", date.c_str(), 1);
      ::setenv("GIT_AUTHOR_DATE", date.c_str(), 1);
      git(dir, "add -A");
      git(dir, "commit -q -m c" + std::to_string(i));
    }
  }

  void expect_head(const fs::path& book, const fs::path& toplevel, const fs::path& repo_dir,
                   std::time_t time) {
    auto r = find_repository(book, "");
    EXPECT_EQ(r.toplevel, toplevel);
    EXPECT_EQ(r.commit, git(repo_dir, "rev-parse HEAD"));
    ASSERT_TRUE(r.commit_time.has_value());
    EXPECT_EQ(*r.commit_time, time);
  }

  fs::path root_;
};

TEST_F(RepositoryTest, NoRepositoryKeepsTheBookRoot) {
  fs::create_directories(root_ / "book");
  auto r = find_repository(root_ / "book", "https://github.com/o/n.git");
  EXPECT_EQ(r.toplevel, root_ / "book");
  EXPECT_EQ(r.commit, "");
  EXPECT_FALSE(r.commit_time);
  EXPECT_EQ(r.revision(), "HEAD");
  EXPECT_EQ(r.file_url("a b.md"), "https://github.com/o/n/blob/HEAD/a%20b.md");
}

TEST_F(RepositoryTest, LooseObjectsFromASubfolder) {
  make_repo(root_ / "r", 2);
  expect_head(root_ / "r" / "book", root_ / "r", root_ / "r", 1700000100);
}

TEST_F(RepositoryTest, PackedObjectsAndRefs) {
  // Enough commits of one growing file for the pack to hold deltas; loose objects and refs removed.
  make_repo(root_ / "r", 12);
  git(root_ / "r", "repack -a -d -q --depth=50 --window=50");
  git(root_ / "r", "prune-packed");
  git(root_ / "r", "pack-refs --all --prune");
  ASSERT_FALSE(fs::exists(root_ / "r" / ".git" / "refs" / "heads" / "main"));
  expect_head(root_ / "r" / "book", root_ / "r", root_ / "r", 1700001100);
}

TEST_F(RepositoryTest, DetachedHead) {
  make_repo(root_ / "r", 3);
  git(root_ / "r", "checkout -q --detach HEAD~1");
  expect_head(root_ / "r", root_ / "r", root_ / "r", 1700000100);
}

TEST_F(RepositoryTest, UnbornBranchHasNoCommit) {
  fs::create_directories(root_ / "r" / "book");
  git(root_ / "r", "init -q");
  auto r = find_repository(root_ / "r" / "book", "");
  EXPECT_EQ(r.toplevel, root_ / "r");
  EXPECT_EQ(r.commit, "");
  EXPECT_EQ(r.revision(), "HEAD");
}

TEST_F(RepositoryTest, LinkedWorkTree) {
  make_repo(root_ / "r", 1);
  git(root_ / "r", "worktree add -q -b other ../wt");
  ::setenv("GIT_COMMITTER_DATE", "1700005000 +0000", 1);
  std::ofstream(root_ / "wt" / "book" / "more.md") << "More.\n";
  git(root_ / "wt", "add -A");
  git(root_ / "wt", "commit -q -m other");
  expect_head(root_ / "wt" / "book", root_ / "wt", root_ / "wt", 1700005000);
  // The main work tree still reads its own branch.
  expect_head(root_ / "r", root_ / "r", root_ / "r", 1700000000);
}

TEST_F(RepositoryTest, Submodule) {
  make_repo(root_ / "lib", 2);
  make_repo(root_ / "super", 1);
  git(root_ / "super", "submodule add -q ../lib sub");
  git(root_ / "super", "commit -q -m sub");
  ASSERT_TRUE(fs::is_regular_file(root_ / "super" / "sub" / ".git"));
  expect_head(root_ / "super" / "sub" / "book", root_ / "super" / "sub", root_ / "lib", 1700000100);
}

TEST_F(RepositoryTest, AlternatesAreNotFollowed) {
  // A clone sharing its objects with the original (objects/info/alternates): the commit is named by
  // the clone's refs, but its object lies outside the clone's repository and is not read.
  make_repo(root_ / "r", 1);
  git(root_, "clone -q --shared r shared");
  ASSERT_TRUE(fs::exists(root_ / "shared" / ".git" / "objects" / "info" / "alternates"));
  auto r = find_repository(root_ / "shared", "");
  EXPECT_EQ(r.toplevel, root_ / "shared");
  EXPECT_EQ(r.commit, git(root_ / "r", "rev-parse HEAD"));
  EXPECT_FALSE(r.commit_time) << "read a commit through objects/info/alternates";
}

TEST_F(RepositoryTest, GitFileWithoutGitdirIsNoRepository) {
  fs::create_directories(root_ / "book");
  std::ofstream(root_ / ".git") << "not a gitdir line\n";
  auto r = find_repository(root_ / "book", "");
  EXPECT_EQ(r.toplevel, root_ / "book");
  EXPECT_EQ(r.commit, "");
}

// The remote's forms a clone has, each naming the repository's web address.
TEST_F(RepositoryTest, RemoteGivesTheWebAddressInEveryForm) {
  const fs::path clone = root_ / "clone";
  fs::create_directories(clone);
  git(clone, "init -q");
  EXPECT_EQ(bb::repo::remote_web_url(clone), "");  // no remote
  for (const char* url :
       {"https://github.com/o/n.git", "https://github.com/o/n/", "git@github.com:o/n.git",
        "ssh://git@github.com/o/n.git", "ssh://git@github.com:22/o/n", "git://github.com/o/n.git"}) {
    git(clone, std::string("remote remove origin 2>/dev/null; git remote add origin '") + url + "'");
    EXPECT_EQ(bb::repo::remote_web_url(clone), "https://github.com/o/n") << url;
  }
  // A remote that is a folder has no web pages; another remote beside origin does not count.
  git(clone, "remote set-url origin /srv/git/n.git");
  EXPECT_EQ(bb::repo::remote_web_url(clone), "");
  git(clone, "remote set-url origin https://example.org/team/book");
  git(clone, "remote add upstream https://github.com/other/fork");
  EXPECT_EQ(bb::repo::remote_web_url(clone), "https://example.org/team/book");
}

// A book in a subfolder of another project's repository is not that project: its remote is not taken.
TEST_F(RepositoryTest, RemoteOfAnEnclosingRepositoryIsNotTheBooks) {
  make_repo(root_ / "project", 1);
  git(root_ / "project", "remote add origin https://github.com/o/project");
  EXPECT_EQ(bb::repo::remote_web_url(root_ / "project"), "https://github.com/o/project");
  EXPECT_EQ(bb::repo::remote_web_url(root_ / "project" / "book"), "");
}

// A revision named, resolved to its commit, and the book's folder at it written into a private folder:
// its regular files and folders only (a symbolic link is left out), removed with it.
TEST_F(RepositoryTest, TheBookAtARevisionIsItsFilesInAPrivateFolder) {
  std::string error;
  fs::create_directories(root_ / "none");
  EXPECT_FALSE(bb::repo::resolve_revision(root_ / "none", "HEAD", error));
  EXPECT_NE(error.find("is not in a git repository"), std::string::npos) << error;
  make_repo(root_ / "r", 2);
  fs::create_directories(root_ / "r" / "book" / "img");
  std::ofstream(root_ / "r" / "book" / "img" / "a.svg") << "<svg/>";
  fs::create_symlink("/etc/passwd", root_ / "r" / "book" / "link");
  std::ofstream(root_ / "r" / "outside.md") << "Not the book's.\n";
  git(root_ / "r", "add -A");
  git(root_ / "r", "commit -q -m more");
  const fs::path book = root_ / "r" / "book";
  auto first = bb::repo::resolve_revision(book, "HEAD~2", error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(first->spec, "HEAD~2");
  EXPECT_EQ(first->commit, git(root_ / "r", "rev-parse HEAD~2"));
  EXPECT_FALSE(bb::repo::resolve_revision(book, "no-such-branch", error));
  EXPECT_EQ(error, "`no-such-branch` names no commit of the repository");
  auto head = bb::repo::resolve_revision(book, "HEAD", error);
  ASSERT_TRUE(head) << error;
  fs::path folder;
  {
    auto at = bb::repo::BookAtRevision::read(book, *head, error);
    ASSERT_TRUE(at) << error;
    folder = at->root().parent_path();
    EXPECT_EQ(at->root().filename(), "book");
    EXPECT_EQ(fs::status(folder).permissions() & fs::perms::all, fs::perms::owner_all);
    std::ifstream in(at->root() / "chapter.md");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "Line 0 of the chapter.\nLine 1 of the chapter.\n");
    EXPECT_TRUE(fs::is_regular_file(at->root() / "img" / "a.svg"));
    EXPECT_FALSE(fs::exists(fs::symlink_status(at->root() / "link")));
    EXPECT_FALSE(fs::exists(at->root() / "outside.md"));
    auto old = bb::repo::BookAtRevision::read(book, *first, error);
    ASSERT_TRUE(old) << error;
    EXPECT_EQ(fs::file_size(old->root() / "chapter.md"), 23u);
    EXPECT_FALSE(fs::exists(old->root() / "img"));
  }
  EXPECT_FALSE(fs::exists(folder));
  // A commit without the book's folder.
  git(root_ / "r", "checkout -q --orphan empty");
  git(root_ / "r", "rm -r -q --cached book");
  git(root_ / "r", "commit -q -m empty");
  auto empty = bb::repo::resolve_revision(book, "empty", error);
  ASSERT_TRUE(empty) << error;
  EXPECT_FALSE(bb::repo::BookAtRevision::read(book, *empty, error));
  EXPECT_EQ(error, "the book's folder book is not in empty");
}

// Without a revision, `bookbuild diff` compares with the merge-base of HEAD and the default branch.
TEST_F(RepositoryTest, TheDefaultBaseIsTheMergeBaseWithTheDefaultBranch) {
  ::unsetenv("GITHUB_BASE_REF");
  std::string error;
  fs::create_directories(root_ / "r");
  git(root_ / "r", "init -q");
  EXPECT_FALSE(bb::repo::default_base(root_ / "r", error));
  EXPECT_EQ(error, "the repository has no commit yet");
  make_repo(root_ / "r", 2);
  const std::string fork = git(root_ / "r", "rev-parse HEAD");
  git(root_ / "r", "checkout -q -b topic");
  std::ofstream(root_ / "r" / "book" / "topic.md") << "Topic.\n";
  git(root_ / "r", "add -A");
  git(root_ / "r", "commit -q -m topic");
  git(root_ / "r", "checkout -q main");
  std::ofstream(root_ / "r" / "book" / "main.md") << "Main.\n";
  git(root_ / "r", "add -A");
  git(root_ / "r", "commit -q -m main");
  git(root_ / "r", "checkout -q topic");
  auto base = bb::repo::default_base(root_ / "r" / "book", error);
  ASSERT_TRUE(base) << error;
  EXPECT_EQ(base->spec, "merge-base of HEAD and main");
  EXPECT_EQ(base->commit, fork);
  // The branch a pull request targets comes first.
  git(root_ / "r", "branch -q -m main trunk");
  EXPECT_FALSE(bb::repo::default_base(root_ / "r", error));
  EXPECT_EQ(error,
            "no default branch to compare with (tried origin/HEAD, main, master): name the base revision");
  ::setenv("GITHUB_BASE_REF", "trunk", 1);
  base = bb::repo::default_base(root_ / "r", error);
  ::unsetenv("GITHUB_BASE_REF");
  ASSERT_TRUE(base) << error;
  EXPECT_EQ(base->spec, "merge-base of HEAD and trunk");
  EXPECT_EQ(base->commit, fork);
}

}  // namespace
