// XeLaTeX log parsing. The runner sets max_print_line high, so messages are not wrapped at 79
// columns; the parser still joins the lines TeX prints after an error until the `l.NNN` line.
#include "latex/tex_log.hpp"

#include <regex>

namespace bb::latex {

namespace {

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find('\n', start);
    if (end == std::string_view::npos) end = s.size();
    std::string_view l = s.substr(start, end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    start = end + 1;
  }
  return lines;
}

bool contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

}  // namespace

TexLog parse_tex_log(std::string_view text) {
  static const std::regex file_line(
      R"(^(\.?/?[^:\s][^:]*\.(?:tex|sty|cls|def|cfg|ltx|aux|toc)):(\d+): (.*)$)");
  static const std::regex context_line(R"(^l\.(\d+) ?(.*)$)");
  static const std::regex undefined_ref(R"(Reference `([^']*)' on page \d+ undefined)");
  TexLog log;
  auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line(lines[i]);
    std::smatch m;
    bool is_error = false;
    TexError e;
    if (std::regex_match(line, m, file_line)) {
      is_error = true;
      e.file = m[1];
      e.line = std::stoi(m[2]);
      e.message = m[3];
    } else if (line.starts_with("! ")) {
      is_error = true;
      e.message = line.substr(2);
    }
    if (is_error) {
      // TeX then prints help and the macro context (noise for a reader of the manuscript) and
      // finally `l.NNN text`: where it stopped reading.
      for (std::size_t k = i + 1; k < lines.size() && k < i + 60; ++k) {
        std::string next(lines[k]);
        std::smatch c;
        if (std::regex_match(next, c, context_line)) {
          if (e.line == 0) e.line = std::stoi(c[1]);
          e.context = next.size() > 200 ? next.substr(0, 200) + "…" : next;
          i = k;
          break;
        }
        if (next.starts_with("! ") || std::regex_match(next, file_line)) break;
      }
      log.errors.push_back(std::move(e));
      continue;
    }
    if (line.starts_with("Missing character: There is no")) log.missing_characters.push_back(line);
    if (std::regex_search(line, m, undefined_ref)) log.undefined_references.push_back(m[1]);
    if (contains(line, "Rerun to get") || contains(line, "Label(s) may have changed") ||
        contains(line, "Rerun LaTeX") || (contains(line, "rerunfilecheck") && contains(line, "has changed")))
      log.rerun = true;
  }
  return log;
}

}  // namespace bb::latex
