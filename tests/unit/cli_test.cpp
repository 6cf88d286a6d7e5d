// The bookbuild executable end to end: exit codes, diagnostics with places, and the fixture book.
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

std::string book(const std::string& name) {
  return "--book '" + (test::fixtures() / "books" / name).string() + "'";
}

TEST(Cli, VersionAndHelp) {
  auto v = test::run_bookbuild("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("bookbuild "), std::string::npos);
  EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out;
  for (const char* sub :
       {"", "site ", "epub ", "latex ", "pdf ", "check ", "calc ", "init ", "completion "}) {
    auto h = test::run_bookbuild(std::string(sub) + "--help");
    EXPECT_EQ(h.exit_code, 0) << sub;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << sub;
  }
}

// The completion scripts are written from the CLI definitions: every subcommand and a subcommand's
// own option appear, and an unknown shell is a usage error.
TEST(Cli, CompletionScriptsNameEverySubcommand) {
  for (const char* shell : {"bash", "zsh"}) {
    auto r = test::run_bookbuild(std::string("completion ") + shell);
    EXPECT_EQ(r.exit_code, 0) << shell;
    for (const char* word : {"site", "epub", "latex", "pdf", "check", "calc", "init", "completion",
                             "--with-downloads", "--language"})
      EXPECT_NE(r.out.find(word), std::string::npos) << shell << " lacks " << word;
  }
  EXPECT_EQ(test::run_bookbuild("completion fish").exit_code, 2);
}

TEST(Cli, UnknownSubcommandIsUsageError) {
  auto r = test::run_bookbuild("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, CheckOnGoodBookSucceeds) {
  auto r = test::run_bookbuild(book("mini") + " check");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("zh (zh-Hans): 2 chapters"), std::string::npos) << r.out;
}

TEST(Cli, TreeOfTheFixtureBookMatchesGolden) {
  auto r = test::run_bookbuild(book("mini") + " check --dump");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Paths in the dump are absolute; make them relative to the fixture folder.
  std::string out = r.out;
  std::string base = (test::fixtures() / "books" / "mini").string() + "/";
  for (std::size_t p; (p = out.find(base)) != std::string::npos;) out.erase(p, base.size());
  test::expect_golden(test::fixtures() / "books" / "mini.tree", out);
}

TEST(Cli, AllProblemsOfARunAreReportedWithPlaces) {
  auto r = test::run_bookbuild(book("broken") + " check");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.err.find(
          "manuscripts/chapter01.md:3:27: error: footnote `[^missing]` is referenced but never defined"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("manuscripts/chapter01.md:5:1: error: display math opened with `$$` is never closed"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("manuscripts/chapter02.md:3:10: error: unclosed `{{`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 errors"), std::string::npos) << r.err;
}

TEST(Cli, FailedSiteBuildLeavesNoHalfWrittenOutput) {
  fs::path out = fs::temp_directory_path() / ("bb-cli-out-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto r = test::run_bookbuild(book("broken") + " --out '" + out.string() + "' site");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(fs::exists(out / "site"));
  auto ok = test::run_bookbuild(book("mini") + " --out '" + out.string() + "' site");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(out / "site" / "index.html"));
  EXPECT_TRUE(fs::exists(out / "site" / "en" / "ch01.html"));
  EXPECT_TRUE(fs::exists(out / "site" / "img" / "bw.svg"));
  fs::remove_all(out);
}

// Progress (diag/progress.hpp): none in a log or a pipe, nor with -q; `--progress always` draws
// the status line and wipes it before each line the tool prints; on a real terminal (a pty from
// util-linux `script`) `auto` draws it unless TERM is dumb.
TEST(Cli, ProgressOnlyOnATerminalOrWhenAsked) {
  fs::path out = fs::temp_directory_path() / ("bb-cli-progress-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string args = book("mini") + " --out '" + out.string() + "' ";
  const std::string wipe = "\r\x1b[K";
  auto plain = test::run_bookbuild(args + "epub");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("epub: "), std::string::npos) << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos) << plain.err;
  EXPECT_EQ(plain.err.find("\x1b["), std::string::npos) << plain.err;
  auto quiet = test::run_bookbuild(args + "-q --progress always epub");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  auto always = test::run_bookbuild(args + "--progress always epub");
  EXPECT_EQ(always.exit_code, 0) << always.err;
  EXPECT_NE(always.err.find(wipe + "[epub zh] chapters 2/2"), std::string::npos) << always.err;
  EXPECT_NE(always.err.find(wipe + "[epub en] compressing"), std::string::npos) << always.err;
  EXPECT_NE(always.err.find(wipe + "epub: "), std::string::npos) << always.err;
  EXPECT_TRUE(always.err.ends_with("KiB)\n")) << always.err;  // the last line is not a status line
  EXPECT_EQ(test::run_bookbuild(args + "--progress sometimes epub").exit_code, 2);

  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "util-linux script (a pseudo-terminal) is absent";
  auto on_pty = [&](const std::string& term) {
    return test::run_command("TERM=" + term + " /usr/bin/script -qec \"'" BOOKBUILD_EXE "' " + args +
                             "epub\" /dev/null </dev/null");
  };
  auto tty = on_pty("xterm");
  EXPECT_EQ(tty.exit_code, 0) << tty.out;
  EXPECT_NE(tty.out.find(wipe + "[epub zh] "), std::string::npos) << tty.out;
  auto dumb = on_pty("dumb");
  EXPECT_EQ(dumb.exit_code, 0) << dumb.out;
  EXPECT_NE(dumb.out.find("epub: "), std::string::npos) << dumb.out;
  EXPECT_EQ(dumb.out.find("\x1b["), std::string::npos) << dumb.out;
  fs::remove_all(out);
}

TEST(Cli, CorpusChecksWithZeroErrors) {
  fs::path corpus = BOOKBUILD_CORPUS;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "corpus not present at " << corpus;
  auto r = test::run_bookbuild("--book '" + corpus.string() + "' check");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find(": error:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace bb
