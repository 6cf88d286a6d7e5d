// Data-driven checks: each folder under tests/fixtures/checks is a small book with an expected.txt:
//   exit N            the exit code of the run
//   args: check refs  (optional) the subcommand and its options; default `check`
//   path:line:col: severity: message   every diagnostic, in order (none for a clean book)
#include <regex>

#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(test::fixtures() / "checks"))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class CheckFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckFixture, ReportsExactlyTheExpectedDiagnostics) {
  fs::path dir = test::fixtures() / "checks" / GetParam();
  auto expected = lines(test::read_file(dir / "expected.txt"));
  ASSERT_FALSE(expected.empty());
  int exit_code = std::stoi(expected[0].substr(5));
  std::string args = "check";
  std::size_t first = 1;
  if (expected.size() > 1 && expected[1].starts_with("args: ")) {
    args = expected[1].substr(6);
    first = 2;
  }
  std::vector<std::string> want(expected.begin() + static_cast<long>(first), expected.end());
  // A fixture that uses this repository's calc data gets a copy of it inside the book: a book may
  // read nothing outside itself (docs/security.md).
  fs::path tmp = fs::temp_directory_path() / ("bb-check-" + std::to_string(::getpid()) + "-" + GetParam());
  std::string toml = test::read_file(dir / "book.toml");
  if (auto at = toml.find("\"../../../../calculations\""); at != std::string::npos) {
    fs::remove_all(tmp);
    fs::copy(dir, tmp, fs::copy_options::recursive);
    fs::copy(fs::path(BOOKBUILD_SOURCE_DIR) / "calculations", tmp / "calculations",
             fs::copy_options::recursive);
    toml.replace(at, 26, "\"calculations\"");
    test::write_file(tmp / "book.toml", toml);
    dir = tmp;
  }
  // The output (check keeps a figure cache there) goes outside the fixture.
  const fs::path out =
      fs::temp_directory_path() / ("bb-check-out-" + std::to_string(::getpid()) + "-" + GetParam());
  auto r = test::run_bookbuild("--book '" + dir.string() + "' --out '" + out.string() + "' " + args);
  fs::remove_all(tmp);
  fs::remove_all(out);
  static const std::regex diag(R"(^\S.*: (error|warning|note): .*)");
  std::vector<std::string> got;
  for (const auto& l : lines(r.err))
    if (std::regex_match(l, diag)) got.push_back(l);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_EQ(got, want) << "stderr:\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(Books, CheckFixture, ::testing::ValuesIn(case_names()), [](const auto& info) {
  std::string n = info.param;
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace
}  // namespace bb

namespace bb {
namespace {

// A change to a model config that alters a number in the text makes `check numbers` fail at the
// bound literals, in every edition.
TEST(CheckNumbers, StaleLiteralsAfterAConfigChangeFailInEveryEdition) {
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / ("bb-stale-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(test::fixtures() / "checks" / "numbers-ok", tmp / "book", fs::copy_options::recursive);
  fs::copy(fs::path(BOOKBUILD_SOURCE_DIR) / "calculations", tmp / "book" / "calculations",
           fs::copy_options::recursive);
  std::string toml = test::read_file(tmp / "book" / "book.toml");
  toml.replace(toml.find("../../../../calculations"), 24, "calculations");
  test::write_file(tmp / "book" / "book.toml", toml);

  auto before = test::run_bookbuild("--book '" + (tmp / "book").string() + "' check numbers");
  ASSERT_EQ(before.exit_code, 0) << before.err;

  fs::path config = tmp / "book" / "calculations" / "configs" / "models" / "qwen3-8b" / "config.json";
  std::string json = test::read_file(config);
  auto at = json.find("\"num_hidden_layers\": 36");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 23, "\"num_hidden_layers\": 40");
  test::write_file(config, json);

  auto after = test::run_bookbuild("--book '" + (tmp / "book").string() + "' check numbers");
  EXPECT_EQ(after.exit_code, 1);
  EXPECT_NE(after.err.find("manuscripts/01-数.md:4:81: error: number `133.59 TFLOPs` does not match"),
            std::string::npos)
      << after.err;
  EXPECT_NE(after.err.find("book-ru/chapter1.md:4:93: error: number `133,59 TFLOPs` does not match"),
            std::string::npos)
      << after.err;
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace bb

namespace bb {
namespace {

// The binding assistant on typed counts (tests/fixtures/suggest): every proposal comes from the
// scenario the paragraph cites (a placeholder, or a footnote that links the result file) or from the
// config of the model the line is about, and a count with no such evidence gets none. `--apply`
// writes exactly those bound literals, and they check.
TEST(Suggest, CountsAreBoundToWhatTheirParagraphCites) {
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / ("bb-suggest-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(test::fixtures() / "suggest" / "book", tmp / "book", fs::copy_options::recursive);
  fs::copy(fs::path(BOOKBUILD_SOURCE_DIR) / "calculations", tmp / "book" / "calculations",
           fs::copy_options::recursive);
  std::string toml = test::read_file(tmp / "book" / "book.toml");
  toml.replace(toml.find("../../../../calculations"), 24, "calculations");
  test::write_file(tmp / "book" / "book.toml", toml);
  const std::string book = "--book '" + (tmp / "book").string() + "' ";

  auto r = test::run_bookbuild(book + "check numbers --suggest");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, test::read_file(test::fixtures() / "suggest" / "expected.txt"));

  auto applied = test::run_bookbuild(book + "check numbers --suggest --apply");
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  std::string zh = test::read_file(tmp / "book" / "manuscripts" / "01-建议.md");
  EXPECT_NE(zh.find("[36]{calc=model(qwen3-8b).num_hidden_layers} 层"), std::string::npos) << zh;
  EXPECT_NE(zh.find("没有出处的 64 个 token"), std::string::npos) << zh;  // no evidence, left typed
  auto check = test::run_bookbuild(book + "check numbers");
  EXPECT_EQ(check.exit_code, 0) << check.err;
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace bb
