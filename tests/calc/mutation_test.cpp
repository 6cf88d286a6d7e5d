// The mutation suite on this repository's book (not a fixture): in a copy of the book, change a model
// config value, a hardware peak, a scenario argument and a typed literal in one edition. Each change
// must make `bookbuild check` fail at the expected places in every edition it affects; after
// `bookbuild calc reproduce --write` the rendered chapters change in all four editions.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

const char* const kEditionFolders[] = {"manuscripts/", "book-en/", "book-zh-tw/", "book-ru/book/"};

struct BookRun {
  int status = -1;
  std::string out;
  std::vector<std::string> errors;  // `path:line:col: error: ...` lines of stderr
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// Replaces the first `from` in a file; the test fails if it is not there (the book changed under it).
void replace_once(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = read(file);
  auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not found in " << file;
  text.replace(at, from.size(), to);
  write(file, text);
}

BookRun bookbuild(const fs::path& book, const std::string& args) {
  fs::path err = book.parent_path() / "stderr.txt";
  std::string cmd =
      std::string(BOOKBUILD_EXE) + " --book '" + book.string() + "' " + args + " 2>'" + err.string() + "'";
  BookRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::istringstream lines(read(err));
  static const std::regex diag(R"(^\S+:\d+:\d+: error: .*)");
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, diag)) r.errors.push_back(line);
  return r;
}

// A fresh copy of the book: book.toml, the calculations, its Lua filters, its templates (the cover
// book.toml names) and the four editions.
class Mutation : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("bb-mutation-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    bb::test::copy_project_book(book());
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  fs::path book() const { return dir_ / "book"; }

  // Errors whose text contains `needle`, per edition folder.
  static std::set<std::string> editions_with(const BookRun& r, const std::string& needle) {
    std::set<std::string> out;
    for (const auto& e : r.errors)
      if (e.find(needle) != std::string::npos)
        for (const char* ed : kEditionFolders)
          if (e.starts_with(ed)) out.insert(ed);
    return out;
  }
  static bool any_error(const BookRun& r, const std::string& needle) {
    for (const auto& e : r.errors)
      if (e.find(needle) != std::string::npos) return true;
    return false;
  }
  // The resolved tree of every chapter (rendered numbers included), per edition.
  std::map<std::string, std::string> rendered() {
    BookRun r = bookbuild(book(), "check parse --dump");
    std::map<std::string, std::string> out;
    std::string edition;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("== ")) edition = line.substr(3, line.find(' ', 3) - 3);
      out[edition] += line + "\n";
    }
    return out;
  }
  void reproduce() {
    BookRun r = bookbuild(book(), "calc reproduce --write --format md");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  void expect_all_editions_changed(const std::map<std::string, std::string>& before) {
    auto after = rendered();
    for (const char* ed : {"zh", "en", "zh-tw", "ru"}) {
      ASSERT_TRUE(before.count(ed)) << ed;
      EXPECT_NE(before.at(ed), after[ed]) << "the " << ed << " edition renders the same numbers";
    }
  }
  const std::set<std::string> all_ = {kEditionFolders[0], kEditionFolders[1], kEditionFolders[2],
                                      kEditionFolders[3]};
  fs::path dir_;
};

TEST_F(Mutation, UnchangedBookPasses) {
  BookRun r = bookbuild(book(), "check");
  EXPECT_EQ(r.status, 0) << ::testing::PrintToString(r.errors);
}

// (a) A model config value: Qwen3-8B loses a layer.
TEST_F(Mutation, ModelConfigChange) {
  auto before = rendered();
  replace_once(book() / "calculations/configs/models/qwen3-8b/config.json", "\"num_hidden_layers\": 36",
               "\"num_hidden_layers\": 35");
  BookRun r = bookbuild(book(), "check");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(any_error(r, "scenario 'qwen3-8b-prefill-8192' recomputes differently"));
  EXPECT_EQ(editions_with(r, "cites scenario 'qwen3-8b-decode-b1-s8192'"), all_);
  EXPECT_EQ(editions_with(r, "number `36` does not match `model(qwen3-8b).num_hidden_layers`"), all_);
  reproduce();
  BookRun again = bookbuild(book(), "check");
  EXPECT_FALSE(any_error(again, "recomputes differently")) << ::testing::PrintToString(again.errors);
  EXPECT_FALSE(any_error(again, "cites scenario"));
  // The typed "36" is still wrong: results regenerate, prose does not.
  EXPECT_EQ(editions_with(again, "number `36` does not match"), all_);
  expect_all_editions_changed(before);
}

// (b) A hardware peak that no longer equals what its source printed.
TEST_F(Mutation, HardwarePeakChange) {
  auto before = rendered();
  replace_once(book() / "calculations/configs/hardware.json", "\"tera_ops_per_second\": 989.4",
               "\"tera_ops_per_second\": 889.4");
  BookRun r = bookbuild(book(), "check");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(
      any_error(r, "configs/hardware.json:") &&
      any_error(r,
                "peak BF16/FP32/tensor/dense: tera_ops_per_second 889.4 is not what its source records "
                "(reported \"989.4\")"))
      << ::testing::PrintToString(r.errors);
  EXPECT_TRUE(any_error(r, "scenario 'projection-qwen3-8b-h100-sxm-b1' recomputes differently"));
  EXPECT_EQ(editions_with(r, "cites scenario 'projection-qwen3-8b-h100-sxm-b1'"), all_);
  reproduce();
  BookRun again = bookbuild(book(), "check");
  EXPECT_FALSE(any_error(again, "recomputes differently"));
  EXPECT_TRUE(any_error(again, "is not what its source records"));  // the catalogue is still wrong
  expect_all_editions_changed(before);
}

// (c) A scenario argument: the reference prefill at half the tokens. Scenarios whose arguments refer
// to it go stale with it.
TEST_F(Mutation, ScenarioArgumentChange) {
  auto before = rendered();
  fs::path scenarios = book() / "calculations/scenarios/book.json";
  std::string text = read(scenarios);
  auto at = text.find("\"id\": \"qwen3-8b-prefill-8192\"");
  ASSERT_NE(at, std::string::npos);
  auto tokens = text.find("\"tokens\": 8192", at);
  ASSERT_NE(tokens, std::string::npos);
  text.replace(tokens, 14, "\"tokens\": 4096");
  write(scenarios, text);
  BookRun r = bookbuild(book(), "check");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(any_error(r, "scenario 'qwen3-8b-prefill-8192' recomputes differently"));
  EXPECT_TRUE(any_error(r, "scenario 'training-qwen3-8b-step-h100' recomputes differently"));
  EXPECT_EQ(editions_with(r, "cites scenario 'qwen3-8b-prefill-8192'"), all_);
  // The prose that says "8192 tokens" is bound to the argument, so it fails too, in every edition.
  EXPECT_EQ(editions_with(r, "number `8192` does not match `qwen3-8b-prefill-8192.scenario.tokens`"), all_);
  reproduce();
  BookRun again = bookbuild(book(), "check");
  EXPECT_FALSE(any_error(again, "recomputes differently"));
  // Regenerated results do not rewrite the prose: it still says 8192 and is still wrong.
  EXPECT_EQ(editions_with(again, "number `8192` does not match `qwen3-8b-prefill-8192.scenario.tokens`"),
            all_);
  expect_all_editions_changed(before);
}

// (d) A typed literal in one edition only: only that edition fails, at that line.
TEST_F(Mutation, TypedLiteralChangeInOneEdition) {
  replace_once(book() / "book-ru/book/chapter1.md", "[36]{calc=model(qwen3-8b).num_hidden_layers}",
               "[35]{calc=model(qwen3-8b).num_hidden_layers}");
  BookRun r = bookbuild(book(), "check");
  EXPECT_EQ(r.status, 1);
  ASSERT_EQ(r.errors.size(), 1u) << ::testing::PrintToString(r.errors);
  EXPECT_TRUE(r.errors[0].starts_with("book-ru/book/chapter1.md:9:"));
  EXPECT_NE(r.errors[0].find("number `35` does not match `model(qwen3-8b).num_hidden_layers`: recomputed 36"),
            std::string::npos)
      << r.errors[0];
}

}  // namespace
