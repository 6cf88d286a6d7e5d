// The converter's test data under tests/math/fixtures: golden pairs and expected errors.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace bb::math::test {

std::filesystem::path fixtures_dir();

// fixtures/golden/NAME.inline.tex or NAME.display.tex, with the expected MathML in NAME.*.mml.
struct GoldenCase {
  std::string name;  // file stem, e.g. "fractions.inline"
  bool display = false;
  std::string tex;  // without the file's final newline
  std::filesystem::path expected_path;
};
std::vector<GoldenCase> golden_cases();

// fixtures/errors.txt: a line `inline: TEX` or `display: TEX`, then one `OFFSET: message` line per
// expected error; cases are separated by blank lines, `#` starts a comment line.
struct ExpectedError {
  std::size_t offset = 0;
  std::string message;
};
struct ErrorCase {
  int line = 0;  // where the case starts in errors.txt
  bool display = false;
  std::string tex;
  std::vector<ExpectedError> errors;
};
std::vector<ErrorCase> error_cases();

// Readable test names and failure messages instead of gtest's byte dumps.
inline void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.name << ": " << c.tex;
}
inline void PrintTo(const ErrorCase& c, std::ostream* os) {
  *os << "errors.txt:" << c.line << ": " << c.tex;
}

std::string read_file(const std::filesystem::path& path);

}  // namespace bb::math::test
