// The status line on a fake terminal (a string buffer): what is drawn, that other output wipes it
// first and is never cut by it. That a run without a terminal prints none is tested end to end (cli_test).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "diag/progress.hpp"

namespace bb {
namespace {

const std::string kWipe = "\r\x1b[K";

TEST(Progress, WantedOnlyOnARealTerminalAndNeverWhenQuiet) {
  EXPECT_TRUE(progress_wanted(ProgressMode::Auto, false, true, "xterm-256color"));
  EXPECT_FALSE(progress_wanted(ProgressMode::Auto, false, false, "xterm"));  // a pipe, a CI log
  EXPECT_FALSE(progress_wanted(ProgressMode::Auto, false, true, "dumb"));    // an editor's pane
  EXPECT_FALSE(progress_wanted(ProgressMode::Auto, false, true, nullptr));
  EXPECT_FALSE(progress_wanted(ProgressMode::Auto, false, true, ""));
  EXPECT_FALSE(progress_wanted(ProgressMode::Auto, true, true, "xterm"));
  EXPECT_TRUE(progress_wanted(ProgressMode::Always, false, false, nullptr));
  EXPECT_FALSE(progress_wanted(ProgressMode::Always, true, true, "xterm"));  // -q wins
  EXPECT_FALSE(progress_wanted(ProgressMode::Never, false, true, "xterm"));
}

TEST(Progress, StatusReplacesTheLineInPlaceAndClearWipesIt) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 80);
  p.status("pdf zh", "xelatex pass 1/3");
  p.status("pdf zh", "xelatex pass 1/3");  // unchanged: not drawn again
  p.status("pdf zh", "xelatex pass 2/3");
  p.clear();
  p.clear();  // nothing shown: nothing written
  EXPECT_EQ(terminal.str(),
            kWipe + "[pdf zh] xelatex pass 1/3" + kWipe + "[pdf zh] xelatex pass 2/3" + kWipe);
}

TEST(Progress, OtherOutputWipesTheLineBeforeItsFirstByte) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 80);
  std::ostream err(p.guard(&terminal));
  p.status("site", "pages 3/40");
  err << "chapter.md:3:1: error: unclosed `{{`\n";
  err << "1 error, 0 warnings\n";  // no status between: no wipe either
  EXPECT_EQ(terminal.str(), kWipe + "[site] pages 3/40" + kWipe +
                                "chapter.md:3:1: error: unclosed `{{`\n1 error, 0 warnings\n");
}

TEST(Progress, NoStatusInTheMiddleOfALine) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 80);
  std::ostream err(p.guard(&terminal));
  err << "pdf: zh: ";
  p.status("pdf zh", "xelatex pass 1/3");  // would cut the line in two: skipped
  err << "book.pdf\n";
  p.status("pdf zh", "xelatex pass 2/3");
  EXPECT_EQ(terminal.str(), "pdf: zh: book.pdf\n" + kWipe + "[pdf zh] xelatex pass 2/3");
}

TEST(Progress, StdoutIsPushedOutBeforeTheNextStatusLine) {
  std::stringbuf terminal, stdout_target;
  Progress p;
  p.enable(&terminal, 80);
  std::ostream out(p.guard(&stdout_target));
  p.status("epub en", "chapters 1/2");
  out << "report line\n";
  EXPECT_EQ(terminal.str(), kWipe + "[epub en] chapters 1/2" + kWipe);
  EXPECT_EQ(stdout_target.str(), "report line\n");
}

TEST(Progress, LinesAreCutToTheTerminalWidthAndControlsEscaped) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 12);  // 11 cells: "[x] " and 7 more
  p.status("x", "abcdefghijkl");
  p.status("x", "中文中文中文");  // two cells each: three fit
  p.status("\x1b[31mred", "");
  EXPECT_EQ(terminal.str(), kWipe + "[x] abcdefg" + kWipe + "[x] 中文中" + kWipe + "[\\x1B[31mre");
}

TEST(Progress, FrequentStepsWithinTheIntervalAreSkippedButTheLastIsDrawn) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 80, std::chrono::hours(1));
  ProgressCount count("site", "figures", 4, p);
  for (int i = 0; i < 4; ++i) count.step();
  EXPECT_EQ(terminal.str(), kWipe + "[site] figures 1/4" + kWipe + "[site] figures 4/4");
}

// Two threads count steps while a third prints whole lines: every line arrives whole, each starting
// on a wiped line, and the count ends at its total.
TEST(Progress, ThreadsNeverGarbleALine) {
  std::stringbuf terminal;
  Progress p;
  p.enable(&terminal, 80);
  std::ostream err(p.guard(&terminal));
  ProgressCount count("site", "figures", 2000, p);
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < 2; ++t)
      workers.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) count.step();
      });
    for (int i = 0; i < 200; ++i) err << "manuscripts/chapter.md:" + std::to_string(i) + ":1: warning: w\n";
  }
  const std::string out = terminal.str();
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = out.find("manuscripts/", at)) != std::string::npos; ++at) {
    ++lines;
    // The byte before a printed line is a wiped line's end or the end of the previous line.
    ASSERT_TRUE(at == 0 || out.compare(at - kWipe.size(), kWipe.size(), kWipe) == 0 || out[at - 1] == '\n')
        << out.substr(at > 40 ? at - 40 : 0, 80);
    const std::size_t end = out.find('\n', at);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(out.substr(at, end - at).find('['), std::string::npos) << out.substr(at, end - at);
  }
  EXPECT_EQ(lines, 200u);
  EXPECT_NE(out.find("[site] figures 2000/2000"), std::string::npos);
}

}  // namespace
}  // namespace bb
