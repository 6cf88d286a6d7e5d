// Running another program (xelatex, epubcheck): its output, environment, working directory, exit code
// and timeout, and many programs started at once from several threads, as `bookbuild build` typesets
// editions in parallel (a child that allocated between fork and exec could hang there for ever).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_support.hpp"
#include "typeset/process.hpp"

namespace bb::typeset {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(Process, CapturesOutputWithTheGivenEnvironmentAndDirectory) {
  bb::test::TempDir tmp("bb-process");
  ProcessOptions po;
  po.capture = true;
  po.cwd = tmp.path;
  po.env = {{"BB_PROCESS_TEST", "a value with spaces"}, {"HOME", "/nowhere"}};
  auto r = run_process({"sh", "-c", "printf '%s|%s|%s' \"$BB_PROCESS_TEST\" \"$HOME\" \"$(pwd)\""}, po);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "a value with spaces|/nowhere|" + fs::canonical(tmp.path).string());
}

TEST(Process, ArgumentsArePassedAsTheyAre) {
  ProcessOptions po;
  po.capture = true;
  auto r = run_process({"printf", "[%s]", "it's \"quoted\" $HOME;"}, po);
  EXPECT_EQ(r.out, "[it's \"quoted\" $HOME;]");
}

TEST(Process, ExitCodesAndAMissingProgram) {
  EXPECT_EQ(run_process({"sh", "-c", "exit 3"}).exit_code, 3);
  EXPECT_EQ(run_process({"/nonexistent/program"}).exit_code, 127);
  EXPECT_EQ(run_process({}).exit_code, -1);
}

TEST(Process, StandardInputIsEmpty) {
  ProcessOptions po;
  po.capture = true;
  auto r = run_process({"sh", "-c", "cat; echo done"}, po);  // would wait for ever on a terminal
  EXPECT_EQ(r.out, "done\n");
}

TEST(Process, ATimeoutEndsTheProgramAndWhatItStarted) {
  bb::test::TempDir tmp("bb-process");
  ProcessOptions po;
  po.timeout = 1s;
  const fs::path marker = tmp.path / "late";
  auto start = std::chrono::steady_clock::now();
  auto r = run_process({"sh", "-c", "(sleep 3; touch '" + marker.string() + "') & sleep 30"}, po);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  std::this_thread::sleep_for(3500ms);
  EXPECT_FALSE(fs::exists(marker)) << "the background child outlived the timeout";
}

TEST(Process, ManyThreadsStartProgramsAtOnce) {
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&good, t] {
      for (int i = 0; i < 15; ++i) {
        ProcessOptions po;
        po.capture = true;
        po.timeout = 60s;
        po.env = {{"BB_N", std::to_string(t * 100 + i)}};
        auto r = run_process({"sh", "-c", "echo $BB_N"}, po);
        if (r.exit_code == 0 && r.out == std::to_string(t * 100 + i) + "\n") ++good;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(good.load(), 6 * 15);
}

}  // namespace
}  // namespace bb::typeset
