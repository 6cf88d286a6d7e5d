// `bookbuild init` (issue 51): a two-language book that passes `check --strict` with no warning and
// builds every output, a calc catalogue for the docs' examples; and `calc hardware --audit`'s exit code.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "new_book.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::NewBook;

TEST(Init, ATwoLanguageBookPassesCheckStrictWithNoWarningAndBuilds) {
  for (const std::string languages : {"en,zh", "zh,en"}) {
    SCOPED_TRACE(languages);
    NewBook b(languages);
    const std::string translation = languages.substr(3);
    EXPECT_TRUE(fs::exists(b.root / ("book-" + translation)));
    auto r = b.run("check --strict");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has(r.err, "warning")) << r.err;
    r = b.run("-q build --no-pdf");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(b.dir.path / "out" / "site" / translation / "index.html"));
    for (const std::string& e : {languages.substr(0, 2), translation}) {
      r = b.run("-q latex --edition " + e);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
  }
  test::TempDir refused("bb-init-refused");
  auto r = test::run_bookbuild("init '" + (refused.path / "book").string() + "' --language en,zx");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "no scaffold for language `zx` (did you mean `zh`?)")) << r.err;
  EXPECT_FALSE(fs::exists(refused.path / "book" / "book.toml"));
}

TEST(Init, TheDocsExamplesWorkInANewBook) {
  NewBook b;
  // The models and the device the docs' examples name (docs/manuscripts.md, docs/calc/).
  for (const std::string args : {"calc forward --model qwen3-8b --tokens 8192",
                                 "calc all-to-all --model qwen3-235b-a22b --tokens-per-rank 64 "
                                 "--participants 8 --routing hotspot",
                                 "calc roofline --device h100-sxm --flops 33554432 --traffic-bytes 33570816",
                                 "calc hardware --audit"}) {
    auto r = b.run(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  }
  b.replace("manuscripts/01-first-steps.md", "## Code",
            "H100 SXM reads {{calc hardware(h100-sxm).memory.bandwidth_bytes_per_second | TB/s:1}}; Qwen3-8B "
            "has {{calc model(qwen3-8b).num_hidden_layers}} layers.\n\n## Code");
  auto r = b.run("check --strict");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Calc, HardwareAuditFailsWhenItListsProblems) {
  NewBook b;
  const fs::path hw = b.root / "calculations" / "configs" / "hardware.json";
  std::string json = test::read_file(hw);
  // Every peak row says where it comes from: a source id the catalog does not list is a problem.
  const std::string source = "\"source_id\": \"";
  ASSERT_TRUE(has(json, source));
  json.replace(json.find(source), source.size(), source + "no-such-source-");
  test::write_file(hw, json);
  auto r = b.run("calc hardware --audit");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.err, "the audit found")) << r.err;
}

}  // namespace
}  // namespace bb
