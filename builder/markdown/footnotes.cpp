// Footnote keys: cmark-gfm numbers footnotes; this puts the author's keys back on references and
// definitions and reports definitions that are duplicated or never referenced.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "markdown/footnotes.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

std::vector<std::pair<std::string, int>> footnote_definitions_in_source(std::string_view src) {
  // `[^key]:` at the start of a line (up to three spaces of indentation), outside code fences.
  std::vector<std::pair<std::string, int>> keys;
  std::istringstream in{std::string(src)};
  std::string line;
  bool in_code = false;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string_view l = line;
    auto ind = l.find_first_not_of(' ');
    if (ind == std::string_view::npos) continue;
    l.remove_prefix(ind);
    if (l.starts_with("```") || l.starts_with("~~~")) in_code = !in_code;
    if (in_code || ind > 3 || !l.starts_with("[^")) continue;
    auto end = l.find("]:");
    if (end != std::string_view::npos) keys.emplace_back(std::string(l.substr(2, end - 2)), line_no);
  }
  return keys;
}

}  // namespace

// A reference's literal is cmark's number, and the definitions come last in the document in the same
// order, without their labels in the public API: the labels are read back from the definitions'
// source lines.
void name_footnotes(Node& doc, std::string_view source) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= source.size();) {
    std::size_t eol = source.find('\n', pos);
    if (eol == std::string_view::npos) eol = source.size();
    lines.push_back(source.substr(pos, eol - pos));
    pos = eol + 1;
  }
  std::map<std::string, std::string> key_of_number;
  int number = 0;
  for (auto& b : doc.children) {
    if (b.kind != Kind::FootnoteDef) continue;
    ++number;
    std::string key = std::to_string(number);
    if (b.loc.line >= 1 && static_cast<std::size_t>(b.loc.line) <= lines.size()) {
      std::string_view l = lines[b.loc.line - 1];
      auto open = l.find("[^");
      auto close = l.find("]:", open == std::string_view::npos ? 0 : open);
      if (open != std::string_view::npos && close != std::string_view::npos) {
        key = std::string(l.substr(open + 2, close - open - 2));
        b.loc.col = static_cast<int>(open) + 1;
      }
    }
    b.text = key;
    key_of_number[std::to_string(number)] = key;
  }
  doc::walk(doc, [&](Node& n) {
    if (n.kind != Kind::FootnoteRef) return;
    if (auto it = key_of_number.find(n.text); it != key_of_number.end()) n.text = it->second;
  });
}

void check_footnote_definitions(const Node& doc, std::string_view source, const std::filesystem::path& path,
                                Diagnostics& diags) {
  // cmark-gfm drops footnote definitions nobody references; say so, since it is usually a typo.
  std::set<std::string> kept;
  for (const auto& b : doc.children)
    if (b.kind == Kind::FootnoteDef) kept.insert(b.text);
  std::set<std::string> seen;
  for (const auto& [key, line] : footnote_definitions_in_source(source)) {
    if (!seen.insert(key).second) {
      diags.error({path, line, 1}, "footnote `[^" + key + "]` is defined twice");
    } else if (!kept.count(key)) {
      diags.warning({path, line, 1}, "footnote `[^" + key + "]` is defined but never referenced");
    }
  }
}

}  // namespace bb::markdown
