// Rewriting typed numbers as bound literals, in place or as a diff (see manuscript_edits.hpp).
#include "check/manuscript_edits.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "output/staging.hpp"

namespace bb::check {
namespace fs = std::filesystem;

namespace {

constexpr int kContext = 3;  // lines of context around a change, as `diff -u` gives

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Where `literal` stands on `line`: at the column given when it is there, else its only occurrence; npos
// when neither, or when it sits between brackets (link text, or a span already).
std::size_t locate(std::string_view line, const std::string& literal, int col) {
  std::size_t at = std::string_view::npos;
  if (col >= 1 && line.substr(static_cast<std::size_t>(col - 1), literal.size()) == literal) {
    at = static_cast<std::size_t>(col - 1);
  } else {
    at = line.find(literal);
    if (at == std::string_view::npos || line.find(literal, at + 1) != std::string_view::npos)
      return std::string_view::npos;
  }
  auto open = line.rfind('[', at);
  auto close = line.find(']', at);
  if (open != std::string_view::npos && close != std::string_view::npos && line.find('[', open + 1) > close &&
      line.find(']', open) == close)
    return std::string_view::npos;
  return at;
}

// `--- a/x` … `@@ -s,n +s,n @@` hunks for lines that differ (edits never add or remove a line).
std::string unified_diff(const std::string& rel, const std::string& before, const std::string& after) {
  const auto a = split_lines(before), b = split_lines(after);
  const bool a_nl = before.ends_with('\n'), b_nl = after.ends_with('\n');
  std::vector<int> changed;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (a[i] != b[i]) changed.push_back(static_cast<int>(i));
  if (changed.empty()) return {};
  const int n = static_cast<int>(a.size());
  std::string out = "--- a/" + rel + "\n+++ b/" + rel + "\n";
  auto line = [&](char mark, const std::string& text, int i, bool nl) {
    out += mark + text + "\n";
    if (i == n - 1 && !nl) out += "\\ No newline at end of file\n";
  };
  for (std::size_t k = 0; k < changed.size();) {
    // One hunk: changes whose contexts touch.
    std::size_t last = k;
    while (last + 1 < changed.size() && changed[last + 1] - changed[last] <= 2 * kContext) ++last;
    const int from = std::max(0, changed[k] - kContext), to = std::min(n - 1, changed[last] + kContext);
    const std::string range = std::to_string(from + 1) + "," + std::to_string(to - from + 1);
    out += "@@ -" + range + " +" + range + " @@\n";
    for (int i = from; i <= to;) {
      if (a[i] == b[i]) {
        line(' ', a[i], i, a_nl);
        ++i;
        continue;
      }
      int j = i;
      while (j <= to && a[j] != b[j]) ++j;
      for (int x = i; x < j; ++x) line('-', a[x], x, a_nl);
      for (int x = i; x < j; ++x) line('+', b[x], x, b_nl);
      i = j;
    }
    k = last + 1;
  }
  return out;
}

}  // namespace

EditOutcome edit_manuscripts(const std::vector<ManuscriptEdit>& edits, const fs::path& root, bool write) {
  EditOutcome outcome;
  std::map<fs::path, std::vector<const ManuscriptEdit*>> by_file;
  for (const auto& e : edits) by_file[e.loc.path].push_back(&e);
  for (const auto& [file, list] : by_file) {
    const std::string original = read_all(file);
    std::string text = original;
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
    // Edits from the end of the file backwards keep earlier offsets valid; one edit per place.
    std::map<std::size_t, const ManuscriptEdit*, std::greater<>> at;
    for (const auto* e : list) {
      const int line = e->loc.line;
      if (line < 1 || static_cast<std::size_t>(line) > starts.size()) continue;
      const std::size_t b = starts[line - 1];
      const std::size_t end = static_cast<std::size_t>(line) < starts.size() ? starts[line] : text.size();
      const std::size_t found = locate(std::string_view(text).substr(b, end - b), e->literal, e->loc.col);
      if (found != std::string_view::npos) at.try_emplace(b + found, e);
    }
    for (const auto& [offset, e] : at) text.replace(offset, e->literal.size(), e->replacement);
    if (at.empty()) continue;
    outcome.applied += static_cast<int>(at.size());
    ++outcome.files_changed;
    outcome.diff += unified_diff(file.lexically_relative(root).generic_string(), original, text);
    if (write) output::write_file_atomic(file, text);
  }
  return outcome;
}

}  // namespace bb::check
