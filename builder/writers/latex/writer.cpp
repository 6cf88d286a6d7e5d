// The LaTeX writer's frame: the entry points, the output with its source map, and labels.
#include "writers/latex/writer.hpp"

#include <algorithm>

#include "pages/page_record.hpp"
#include "text/lines.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

std::string latex_key(std::string_view chapter, std::string_view id) {
  if (id.empty()) return latex_label(chapter);
  return latex_label(std::string(chapter) + ":" + sanitize_id(id));
}

SourceLoc map_line(const std::vector<SourceMark>& marks, int line) {
  auto it = std::upper_bound(marks.begin(), marks.end(), line,
                             [](int l, const SourceMark& m) { return l < m.line; });
  if (it == marks.begin()) return {};
  return std::prev(it)->loc;
}

std::string fill_pattern(const std::string& pattern, const std::string& number) {
  std::string out = pattern;
  if (auto p = out.find("{}"); p != std::string::npos) out.replace(p, 2, number);
  return out;
}

LatexChapter LatexWriter::run(const Node& root) {
  doc::walk(root, [&](const Node& n) {
    if (n.kind == Kind::FootnoteDef) defs_[n.text] = &n;
    if (n.kind == Kind::FootnoteRef && !numbers_.count(n.text))
      numbers_[n.text] = static_cast<int>(numbers_.size()) + 1;
  });
  for (std::size_t i = 0; i < root.children.size(); ++i) {
    const Node& b = root.children[i];
    // Footnote definitions and raw HTML print nothing here: no page to record.
    if (opt_.block_marks && b.kind != Kind::FootnoteDef && b.kind != Kind::HtmlBlock)
      out_ += "\\bbblock{" + pages::block_id(opt_.chapter, i) + "}%\n";
    block(b);
  }
  mark_line();  // so that the scan below counts every line
  return {std::move(out_), std::move(marks_)};
}

void LatexWriter::mark(const SourceLoc& loc) {
  if (loc.line <= 0) return;
  int line = mark_line();
  if (!marks_.empty() && marks_.back().line == line) {
    marks_.back().loc = loc;  // the later node is the one whose text is on this line
    return;
  }
  marks_.push_back({line, loc});
}

int LatexWriter::mark_line() {
  line_ += static_cast<int>(text::count_newlines(std::string_view(out_).substr(scanned_)));
  scanned_ = out_.size();
  return line_;
}

void LatexWriter::label(const Node& n) {
  if (n.id().empty()) return;
  std::string key = latex_key(opt_.chapter, n.id());
  if (!labels_.insert(key).second) return;
  out_ += "\\label{" + key + "}";
}

LatexChapter render_latex(const doc::Node& root, const LatexOptions& options) {
  return LatexWriter(options).run(root);
}

}  // namespace bb::writers
