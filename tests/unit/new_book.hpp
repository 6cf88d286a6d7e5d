// A book made by `bookbuild init` in a folder of the test's own, for the tests of what a new author
// meets first (messages_test.cpp, init_test.cpp, syntax_test.cpp).
#pragma once

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace bb::test {

inline bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// A book made by `init` (in `languages`: "en", "zh", "en,zh"), and bookbuild run on it.
struct NewBook {
  TempDir dir{"bb-messages"};
  std::filesystem::path root = dir.path / "book";
  explicit NewBook(const std::string& languages = "en") {
    auto r = run_bookbuild("init '" + root.string() + "' --language " + languages);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  [[nodiscard]] RunResult run(const std::string& args) const {
    return run_bookbuild("--book '" + root.string() + "' --out '" + (dir.path / "out").string() + "' " +
                         args);
  }
  void replace(const std::filesystem::path& rel, const std::string& from, const std::string& to) const {
    std::string text = read_file(root / rel);
    ASSERT_TRUE(has(text, from)) << rel << ": " << from;
    text.replace(text.find(from), from.size(), to);
    write_file(root / rel, text);
  }
};

}  // namespace bb::test
