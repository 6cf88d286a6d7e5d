// Loading of the golden and error fixtures.
#include "fixtures.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bb::math::test {

std::filesystem::path fixtures_dir() {
  return BOOKBUILD_MATH_FIXTURES;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> cases;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures_dir() / "golden")) {
    const std::filesystem::path& p = entry.path();
    if (p.extension() != ".tex") continue;
    GoldenCase c;
    c.name = p.stem().string();
    c.display = c.name.ends_with(".display");
    if (!c.display && !c.name.ends_with(".inline"))
      throw std::runtime_error(p.string() + ": name must end in .inline.tex or .display.tex");
    c.tex = read_file(p);
    if (c.tex.ends_with('\n')) c.tex.pop_back();
    c.expected_path = p;
    c.expected_path.replace_extension(".mml");
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(),
            [](const GoldenCase& a, const GoldenCase& b) { return a.name < b.name; });
  return cases;
}

std::vector<ErrorCase> error_cases() {
  std::istringstream in(read_file(fixtures_dir() / "errors.txt"));
  std::vector<ErrorCase> cases;
  bool open = false;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.starts_with('#')) continue;
    if (line.empty()) {
      open = false;
      continue;
    }
    if (!open) {
      ErrorCase c;
      c.line = number;
      if (line.starts_with("inline: ")) {
        c.tex = line.substr(8);
      } else if (line.starts_with("display: ")) {
        c.display = true;
        c.tex = line.substr(9);
      } else {
        throw std::runtime_error("errors.txt:" + std::to_string(number) + ": expected inline: or display:");
      }
      cases.push_back(std::move(c));
      open = true;
      continue;
    }
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos)
      throw std::runtime_error("errors.txt:" + std::to_string(number) + ": expected OFFSET: message");
    cases.back().errors.push_back({std::stoul(line.substr(0, colon)), line.substr(colon + 2)});
  }
  return cases;
}

}  // namespace bb::math::test
