// Formula extraction from Markdown for the corpus test (not the builder's front end).
#include "corpus_formulas.hpp"

#include <algorithm>
#include <sstream>

namespace bb::math::test {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

void find_inline(const std::string& line, int line_number, std::vector<FoundFormula>& out) {
  std::size_t k = 0;
  while (k < line.size()) {
    const char c = line[k];
    if (c == '\\') {
      k += 2;
      continue;
    }
    if (c == '`') {
      std::size_t run = 0;
      while (k + run < line.size() && line[k + run] == '`') ++run;
      const std::size_t close = line.find(std::string(run, '`'), k + run);
      k = close == std::string::npos ? k + run : close + run;
      continue;
    }
    if (c == '$' && k + 1 < line.size() && !is_space(line[k + 1]) && line[k + 1] != '$') {
      std::size_t e = k + 1;
      std::size_t found = std::string::npos;
      while (e < line.size()) {
        if (line[e] == '\\') {
          e += 2;
          continue;
        }
        if (line[e] == '$' && !is_space(line[e - 1]) &&
            !(e + 1 < line.size() && line[e + 1] >= '0' && line[e + 1] <= '9')) {
          found = e;
          break;
        }
        ++e;
      }
      if (found != std::string::npos) {
        out.push_back({line_number, static_cast<int>(k) + 2, false, line.substr(k + 1, found - k - 1)});
        k = found + 1;
        continue;
      }
    }
    ++k;
  }
}

}  // namespace

std::vector<FoundFormula> find_formulas(const std::string& markdown) {
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  for (std::string l; std::getline(in, l);) lines.push_back(l);

  std::vector<FoundFormula> out;
  bool fenced = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (t == "$$") {
      std::string body;
      std::size_t j = i + 1;
      for (; j < lines.size() && trim(lines[j]) != "$$"; ++j) body += (j > i + 1 ? "\n" : "") + lines[j];
      out.push_back({static_cast<int>(i) + 2, 1, true, body});
      i = j;
      continue;
    }
    find_inline(lines[i], static_cast<int>(i) + 1, out);
  }
  return out;
}

std::vector<std::filesystem::path> markdown_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace bb::math::test
