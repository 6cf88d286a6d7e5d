// Typed numbers checked against the results their text cites (tests/fixtures/citations): the
// report as a golden file, then mutations of the book — a digit changed in a checked number, a value
// changed in the cited result — must turn into errors at the numbers concerned.
#include <nlohmann/json.hpp>

#include <regex>

#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

struct TempBook {
  fs::path dir;
  TempBook() {
    dir = fs::temp_directory_path() / ("bb-citations-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(test::fixtures() / "citations" / "book", dir / "book", fs::copy_options::recursive);
  }
  ~TempBook() { fs::remove_all(dir); }
  fs::path book() const { return dir / "book"; }
  test::RunResult check(const std::string& extra = "") const {
    return test::run_bookbuild("--book '" + book().string() + "' check numbers " + extra);
  }
  nlohmann::json report() const {
    const fs::path out = dir / "report.json";
    auto r = check("--format json --output '" + out.string() + "'");
    return nlohmann::json::parse(test::read_file(out))["citations"];
  }
};

TEST(Citations, ReportMatchesGoldenFile) {
  TempBook t;
  auto r = t.check();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("scenarios/book.json:9:1: warning: topic 'broken', row #0 is a number"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("scenarios/book.json:12:1: warning: 'title' is a string"), std::string::npos) << r.err;
  test::expect_golden(test::fixtures() / "citations" / "expected.json", t.report().dump(2) + "\n");
}

// A number left unchecked because its text also cites a result the book lacks names that file, in the
// summary and in the JSON report; once the file is there, the same number is checked.
TEST(Citations, ANumberWaitingOnAMissingResultNamesIt) {
  TempBook t;
  auto r = t.check();
  EXPECT_NE(r.out.find("calculations/results/absent-too.json (not in the book): 1 number\n"),
            std::string::npos)
      << r.out;
  auto waiting = [](const nlohmann::json& report) {
    for (const auto& u : report["unchecked"])
      if (u["text"] == "7 GB") return u;
    return nlohmann::json();
  };
  const auto before = waiting(t.report());
  ASSERT_FALSE(before.is_null());
  EXPECT_EQ(before["reason"], "cites-missing-result");
  EXPECT_EQ(before["missing"], nlohmann::json::array({"calculations/results/absent-too.json"}));
  test::write_file(t.book() / "calculations" / "results" / "absent-too.json",
                   "{\"total_bytes\": 7000000000}\n");
  const auto report = t.report();
  EXPECT_TRUE(waiting(report).is_null());
  bool checked = false;
  for (const auto& c : report["checked"])
    checked |= c["text"] == "7 GB" && c["result"] == "calculations/results/absent-too.json";
  EXPECT_TRUE(checked) << report.dump(1);
}

// The book's scenarios/book.json as a clone without `git lfs pull` has it: a warning, not a failure.
TEST(Citations, LfsPointerIsAWarning) {
  TempBook t;
  test::write_file(t.book() / "calculations" / "scenarios" / "book.json",
                   "version https://git-lfs.github.com/spec/v1\noid sha256:"
                   "e35a011642a86e23b3b852ca487e007d4f6b5dca5bb5be76ab32b7c5239cf48a\nsize 13404735\n");
  auto r = t.check();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("scenarios/book.json:1:1: warning: a Git LFS pointer"), std::string::npos) << r.err;
  for (const char* command : {"site", "epub"}) {
    auto b = test::run_bookbuild("--book '" + t.book().string() + "' --out '" + (t.dir / "out").string() +
                                 "' " + command);
    EXPECT_EQ(b.exit_code, 0) << command << "\n" << b.err;
  }
}

// Each checked number of a specific unit (bytes, time, rates), with its last digit changed, is an error
// at its line.
TEST(Citations, ChangedDigitInACheckedNumberIsAnError) {
  TempBook t;
  const auto checked = t.report()["checked"];
  int mutated = 0;
  for (const auto& c : checked) {
    const std::string text = c["text"];
    if (text.find("GB") == std::string::npos && text.find("ms") == std::string::npos &&
        text.find("TB/s") == std::string::npos && text.find("ГБ") == std::string::npos)
      continue;
    const fs::path file = t.book() / c["path"].get<std::string>();
    const std::string original = test::read_file(file);
    // The number's last digit, raised by one (9 becomes 8), on its line.
    std::istringstream lines(original);
    std::string out, line;
    for (int n = 1; std::getline(lines, line); ++n) {
      if (n == c["line"].get<int>()) {
        size_t at = line.find(text);
        ASSERT_NE(at, std::string::npos) << line;
        at += text.find_last_of("0123456789");
        line[at] = line[at] == '9' ? '8' : static_cast<char>(line[at] + 1);
      }
      out += line + "\n";
    }
    test::write_file(file, out);
    auto r = t.check();
    EXPECT_EQ(r.exit_code, 1) << text;
    const std::string where = c["path"].get<std::string>() + ":" + std::to_string(c["line"].get<int>()) + ":";
    EXPECT_NE(r.err.find(where), std::string::npos) << text << "\n" << r.err;
    EXPECT_NE(r.err.find("disagrees with the result its text cites"), std::string::npos) << r.err;
    test::write_file(file, original);
    ++mutated;
  }
  EXPECT_GE(mutated, 8);
}

// A value changed in the cited result is an error at every number bound to that field.
TEST(Citations, ChangedResultValueIsAnErrorAtEveryBoundNumber) {
  TempBook t;
  const auto checked = t.report()["checked"];
  const fs::path result = t.book() / "calculations" / "results" / "demo-budget.json";
  std::string json = test::read_file(result);
  json = std::regex_replace(json, std::regex("\"weight_bytes\": 140000000000"),
                            "\"weight_bytes\": 150000000000");
  test::write_file(result, json);
  auto r = t.check();
  EXPECT_EQ(r.exit_code, 1);
  int bound = 0;
  for (const auto& c : checked) {
    if (c["field"] != "/weight_bytes") continue;
    ++bound;
    const std::string where = c["path"].get<std::string>() + ":" + std::to_string(c["line"].get<int>()) +
                              ":" + std::to_string(c["col"].get<int>()) + ": error:";
    EXPECT_NE(r.err.find(where), std::string::npos) << where << "\n" << r.err;
  }
  EXPECT_GE(bound, 3);
}

// The binding assistant: `--suggest --diff` proposes every checked number as a bound literal naming its
// field (a golden patch; nothing is written), `--apply` writes exactly that, and the written literals
// are then checked against the field they name, so a changed value is an error at each of them.
TEST(Citations, SuggestProposesResultBoundLiteralsAsADiffThenApplies) {
  TempBook t;
  const std::string before = test::read_file(t.book() / "manuscripts" / "01-预算.md");
  auto diff = t.check("--suggest --diff");
  EXPECT_EQ(diff.exit_code, 0) << diff.err;
  test::expect_golden(test::fixtures() / "citations" / "suggest.diff", diff.out);
  EXPECT_EQ(test::read_file(t.book() / "manuscripts" / "01-预算.md"), before);  // a dry run
  EXPECT_EQ(t.check("--suggest --diff --apply").exit_code, 2);

  auto applied = t.check("--suggest --apply");
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  const std::string after = test::read_file(t.book() / "manuscripts" / "01-预算.md");
  EXPECT_NE(after.find("[140 GB]{result=results/demo-budget.json#/weight_bytes}"), std::string::npos)
      << after;
  const auto report = t.report();
  int bound = 0;
  for (const auto& c : report["checked"]) bound += c.value("bound", false) ? 1 : 0;
  EXPECT_GE(bound, 20);
  EXPECT_TRUE(report["mismatches"].empty()) << report.dump(2);

  const fs::path result = t.book() / "calculations" / "results" / "demo-budget.json";
  test::write_file(result,
                   std::regex_replace(test::read_file(result), std::regex("\"weight_bytes\": 140000000000"),
                                      "\"weight_bytes\": 150000000000"));
  auto r = t.check();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("manuscripts/01-预算.md:3:11: error: bound literal `140 GB` does not match "
                       "calculations/results/demo-budget.json /weight_bytes"),
            std::string::npos)
      << r.err;
}

// A bound literal that names no data file, no field, or a field of another unit is an error at it.
TEST(Citations, MalformedResultBindingsAreErrors) {
  TempBook t;
  const fs::path file = t.book() / "book-en" / "chapter01.md";
  test::write_file(file, test::read_file(file) +
                             "\nA [140 GB]{result=results/none.json#/weight_bytes} and "
                             "[140 GB]{result=results/demo-budget.json#/nothing} and "
                             "[140 GB]{result=results/demo-budget.json#/memory_seconds} and "
                             "[140 GB]{result=results/demo-budget.json}.\n");
  auto r = t.check();
  EXPECT_EQ(r.exit_code, 1);
  for (const char* what : {"which is not in the book", "which holds no number", "the field's unit is another",
                           "write the data file under calculations/ and a JSON Pointer"})
    EXPECT_NE(r.err.find(what), std::string::npos) << what << "\n" << r.err;
}

}  // namespace
}  // namespace bb
