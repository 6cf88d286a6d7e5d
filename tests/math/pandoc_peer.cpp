// pandoc peer: writes the formulas as a Markdown document, one paragraph each, converts it with
// `pandoc -f markdown -t html --mathml`, and cuts the <math> elements back out, in order.
#include "pandoc_peer.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace bb::math::test {

std::optional<std::string> pandoc_executable() {
  if (const char* env = std::getenv("BOOKBUILD_PANDOC"); env && *env) {
    if (std::filesystem::exists(env)) return std::string(env);
    return std::nullopt;
  }
  if (std::filesystem::exists("/usr/bin/pandoc")) return std::string("/usr/bin/pandoc");
  return std::nullopt;
}

namespace {

// A temporary file removed when it goes out of scope.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& suffix)
      : path(std::filesystem::temp_directory_path() /
             ("bookbuild-math-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++) + suffix)) {}
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  static int& counter() {
    static int n = 0;
    return n;
  }
};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::vector<std::string> pandoc_mathml(const std::string& pandoc, const std::vector<Formula>& formulas) {
  TempFile input(".md");
  TempFile errors(".log");
  {
    std::ofstream md(input.path, std::ios::binary);
    for (const Formula& f : formulas) {
      if (f.display)
        md << "$$\n" << f.tex << "\n$$\n\n";
      else
        md << '$' << f.tex << "$\n\n";
    }
  }
  const std::string command = quoted(pandoc) + " -f markdown -t html --mathml --wrap=none " +
                              quoted(input.path.string()) + " 2>" + quoted(errors.path.string());
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string html;
  std::array<char, 65536> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) html.append(buffer.data(), n);
  if (::pclose(pipe) != 0) throw std::runtime_error("pandoc failed: " + command);

  // One paragraph per formula, in order.
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = html.find("<p>", at)) != std::string::npos) {
    const std::size_t end = html.find("</p>", at);
    if (end == std::string::npos) break;
    const std::string paragraph = html.substr(at, end - at);
    const std::size_t open = paragraph.find("<math");
    const std::size_t close = paragraph.find("</math>");
    out.push_back(open != std::string::npos && close != std::string::npos
                      ? paragraph.substr(open, close + 7 - open)
                      : std::string());
    at = end;
  }
  if (out.size() != formulas.size())
    throw std::runtime_error("pandoc returned " + std::to_string(out.size()) + " paragraphs for " +
                             std::to_string(formulas.size()) + " formulas");
  return out;
}

}  // namespace bb::math::test
