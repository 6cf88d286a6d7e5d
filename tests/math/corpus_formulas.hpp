// Finds the math in a Markdown manuscript the way pandoc's tex_math_dollars does, for the corpus
// test: `$…$` inline and `$$` display blocks on their own lines, outside code.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bb::math::test {

struct FoundFormula {
  int line = 0;    // 1-based line of the first character of the TeX
  int column = 0;  // 1-based byte column of the first character of the TeX
  bool display = false;
  std::string tex;
};

// Inline: an opening `$` followed by a non-space, a closing `$` preceded by a non-space and not
// followed by a digit; `\$` is an escaped dollar; code spans and fenced code are skipped.
// Display: a line that is just `$$` opens and the next such line closes.
std::vector<FoundFormula> find_formulas(const std::string& markdown);

std::vector<std::filesystem::path> markdown_files(const std::filesystem::path& root);

}  // namespace bb::math::test
