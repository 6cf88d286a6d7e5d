// XeLaTeX log parsing. The runner sets max_print_line high, so messages are not wrapped at 79
// columns; the parser still joins the lines TeX prints after an error until the `l.NNN` line.
#include "typeset/tex_log.hpp"

#include <regex>

namespace bb::typeset {

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

// TeX prints `(path` when it opens an input file and `)` when it closes it; other parentheses in
// messages come in pairs on one line. Keeps the stack, so a warning can name the file being read.
class InputFiles {
 public:
  void scan(std::string_view line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '(') {
        std::size_t end = i + 1;
        while (end < line.size() && line[end] != ' ' && line[end] != '(' && line[end] != ')') ++end;
        std::string_view token = line.substr(i + 1, end - i - 1);
        stack_.push_back(is_path(token) ? std::string(token) : std::string());
      } else if (line[i] == ')' && !stack_.empty()) {
        stack_.pop_back();
      }
    }
  }

  // The innermost file being read, "" before the first.
  std::string current() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
      if (!it->empty()) return *it;
    return {};
  }

 private:
  static bool is_path(std::string_view t) {
    if (t.starts_with("./") || t.starts_with("../") || t.starts_with('/')) return true;
    for (std::string_view ext :
         {".tex", ".sty", ".cls", ".def", ".cfg", ".fd", ".aux", ".toc", ".out", ".ltx"})
      if (t.ends_with(ext)) return true;
    return false;
  }
  std::vector<std::string> stack_;
};

int to_int(const std::ssub_match& m) {
  return m.matched ? std::stoi(m.str()) : 0;
}

}  // namespace

TexLog parse_tex_log(std::string_view text) {
  static const std::regex file_line(
      R"(^(\.?/?[^:\s][^:]*\.(?:tex|sty|cls|def|cfg|ltx|aux|toc)):(\d+): (.*)$)");
  static const std::regex context_line(R"(^l\.(\d+) ?(.*)$)");
  static const std::regex undefined_ref(
      R"((?:Hyper r|R)eference `([^']*)' on page \S+ undefined(?: on input line (\d+))?)");
  static const std::regex overfull(
      R"(^Overfull \\([hv])box \((-?[0-9.]+)pt too (?:wide|high)\) (?:in paragraph at lines (\d+)--(\d+)|in alignment at lines (\d+)--(\d+)|detected at line (\d+)|has occurred while \\output is active))");
  TexLog log;
  InputFiles files;
  auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line(lines[i]);
    std::smatch m;
    if (line.starts_with("Overfull \\") && std::regex_search(line, m, overfull)) {
      OverfullBox box;
      box.vertical = m[1] == "v";
      box.points = std::stod(m[2]);
      box.file = files.current();
      box.first_line = to_int(m[3]) + to_int(m[5]) + to_int(m[7]);
      box.last_line = to_int(m[4]) + to_int(m[6]) + to_int(m[7]);
      log.overfull_boxes.push_back(std::move(box));
      // Then the box's contents, up to a blank line: typeset text, whose parentheses are not files.
      while (i + 1 < lines.size() && !lines[i + 1].empty()) ++i;
      continue;
    }
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
    files.scan(line);
    if (line.starts_with("Missing character: There is no")) log.missing_characters.push_back(line);
    if (contains(line, "eference `") && std::regex_search(line, m, undefined_ref))
      log.undefined_references.push_back({m[1], files.current(), to_int(m[2])});
    if (contains(line, "Rerun to get") || contains(line, "Label(s) may have changed") ||
        contains(line, "Rerun LaTeX") || (contains(line, "rerunfilecheck") && contains(line, "has changed")))
      log.rerun = true;
  }
  return log;
}

}  // namespace bb::typeset
