// The command line: bad input exits 2 with a clear message; every command renders Markdown.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "support.hpp"

namespace {

struct CliRun {
  int status;
  std::string out;
};

// Runs `bookbuild calc` with the project's data; stderr is merged into the output.
CliRun run(const std::string& args) {
  std::string cmd =
      std::string(CALC_EXECUTABLE) + " calc --calculations " + calc_test::kDataDir + " " + args + " 2>&1";
  CliRun r{0, ""};
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace

TEST(Cli, DoneCriterionForwardJson) {
  CliRun r = run("forward --model qwen3-8b --tokens 8192 --format json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"parameters\": 8190735360,"), std::string::npos);
  EXPECT_NE(r.out.find("\"matrix_flops\": 133594323353600,"), std::string::npos);
}

TEST(Cli, BadInputExitsTwoWithAMessage) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"forward --model nope", "unknown model 'nope'"},
      {"forward --batch 0", "batch must be a positive integer"},
      {"forward --tokens -3", "tokens must be a positive integer"},
      {"forward --model qwen3-8b --routing concentrated", "is dense"},
      {"projection-bound --device nope", "unknown device 'nope'"},
      {"roofline --device h100-sxm --flops 1 --traffic-bytes 1 --compute-efficiency 2", "compute-efficiency"},
      {"roofline --device b200-sxm --flops 1 --traffic-bytes 1 --precision FP8", "no peak"},
      {"decode-budget --compute-multiplier nan", "finite"},
      {"forward --format csv --model qwen3-8b --output-head sideways", "sideways"},
      {"ring-collective --format csv", ""},
  };
  for (const auto& c : cases) {
    CliRun r = run(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(Cli, EveryCommandWorksWithMarkdown) {
  const char* commands[] = {"models",
                            "forward --model qwen3-30b-a3b --tokens 16",
                            "generate --steps 8",
                            "state --model qwen3-8b",
                            "cache-sequence",
                            "hardware",
                            "hardware --audit",
                            "roofline --device h100-sxm --flops 1000000 --traffic-bytes 1000",
                            "projection-bound --device a100-80gb-pcie",
                            "resource-basics",
                            "memory-concurrency",
                            "decode-budget",
                            "ring-collective",
                            "tree-collective",
                            "all-to-all"};
  for (const char* c : commands) {
    CliRun r = run(std::string(c) + " --format md");
    EXPECT_EQ(r.status, 0) << c << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("# ", 0), 0u) << c << "\n" << r.out;
  }
  CliRun csv = run("forward --tokens 4 --format csv");
  ASSERT_EQ(csv.status, 0) << csv.out;
  EXPECT_NE(csv.out.find("\n35,ffn_residual,residual,"), std::string::npos);
}

TEST(Cli, HelpIsEverywhere) {
  EXPECT_EQ(run("--help").status, 0);
  EXPECT_EQ(run("forward --help").status, 0);
  CliRun r = run("decode-budget --help");
  EXPECT_NE(r.out.find("--kv-history-bytes-per-request"), std::string::npos);
}
