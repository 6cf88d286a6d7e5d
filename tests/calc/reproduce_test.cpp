// reproduce writes every scenario with a manifest; verify-results catches any drift.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calc/reproduce.hpp"
#include "calc/scenarios.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {
fs::path copy_calculations() {
  fs::path dir = fs::temp_directory_path() / ("calc-reproduce-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* sub : {"configs", "scenarios"})
    fs::copy(fs::path(calc_test::kDataDir) / sub, dir / sub, fs::copy_options::recursive);
  return dir;
}
}  // namespace

TEST(Reproduce, WritesEveryScenarioAndVerifies) {
  fs::path dir = copy_calculations();
  bb::calc::Data data(dir);
  bb::calc::Json report = bb::calc::reproduce(data, true);
  auto scenarios = bb::calc::load_scenarios(data);
  EXPECT_EQ(report["summary"]["scenarios"].get<size_t>(), scenarios.size());
  for (const auto& s : scenarios) {
    EXPECT_TRUE(fs::exists(dir / "results" / (s.id + ".json"))) << s.id;
    EXPECT_TRUE(fs::exists(dir / "results" / (s.id + ".md"))) << s.id;
  }
  EXPECT_TRUE(fs::exists(dir / "results" / "qwen3-8b-prefill-8192.csv"));
  bb::calc::Json ok = bb::calc::verify_results(data);
  EXPECT_TRUE(ok["summary"]["ok"].get<bool>()) << ok.dump(2);

  // Tamper with one result and one input: both are reported.
  std::ofstream(dir / "results" / "decode-budget-base.md", std::ios::app) << "edited\n";
  std::ofstream(dir / "scenarios" / "book.json", std::ios::app) << "\n";
  bb::calc::Json bad = bb::calc::verify_results(data);
  EXPECT_FALSE(bad["summary"]["ok"].get<bool>());
  std::string problems = bad["problems"].dump();
  EXPECT_NE(problems.find("decode-budget-base.md"), std::string::npos) << problems;
  EXPECT_NE(problems.find("scenarios/book.json changed"), std::string::npos) << problems;
  fs::remove_all(dir);
}

TEST(Reproduce, StoredResultsMatchAFreshComputation) {
  bb::calc::Json report = bb::calc::verify_results(calc_test::data());
  EXPECT_TRUE(report["summary"]["ok"].get<bool>()) << report["problems"].dump(2);
}

TEST(Reproduce, Sha256OfKnownInput) {
  EXPECT_EQ(bb::calc::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(bb::calc::sha256_file(calc_test::kDataDir + "/configs/models/qwen3-8b/config.json"),
            "f7c4eadfbbf522470667b797a3c89be2524832d2d599797248dc304fff447c30");
}
