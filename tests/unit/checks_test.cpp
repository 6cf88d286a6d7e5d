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
  auto r = test::run_bookbuild("--book '" + dir.string() + "' " + args);
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
