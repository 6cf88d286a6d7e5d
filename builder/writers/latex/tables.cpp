// Tables in LaTeX: longtable with natural columns, or paragraph columns sized from the cells' text
// when the natural width does not fit the line.
#include "writers/latex/writer.hpp"

#include <algorithm>
#include <cstdio>

#include "writers/latex/cjk_width.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

namespace {

// The text width in "Latin characters" (CJK characters count two): the 138 mm text block of
// templates/latex/preamble.tex holds about 64 such units at the body sizes of every language.
constexpr double kLineWidthChars = 64;

}  // namespace

void LatexWriter::table(const Node& n) {
  std::size_t cols = 0;
  for (const auto& row : n.children) cols = std::max(cols, row.children.size());
  if (cols == 0) return;
  // Column widths: natural columns when the widest row fits the line; else paragraph columns, each
  // at least as wide as its longest unbreakable word, the rest of the line shared in proportion to
  // how much more each column would like.
  std::vector<double> natural(cols, 1), word(cols, 1);
  for (const auto& row : n.children)
    for (std::size_t i = 0; i < row.children.size(); ++i) {
      std::string t = doc::plain_text(row.children[i].children);
      natural[i] = std::max(natural[i], cjk::display_width(t));
      word[i] = std::max(word[i], cjk::longest_word(t));
    }
  const double line = kLineWidthChars;
  double total = 0, min_total = 0, extra_total = 0;
  for (std::size_t i = 0; i < cols; ++i) {
    total += natural[i] + 2;
    min_total += word[i] + 2;
    extra_total += natural[i] - word[i];
  }
  bool wrap = total > line;
  std::string spec = "@{}";
  for (std::size_t i = 0; i < cols; ++i) {
    doc::Align a = i < n.aligns.size() ? n.aligns[i] : doc::Align::None;
    if (!wrap) {
      spec += a == doc::Align::Right ? 'r' : a == doc::Align::Center ? 'c' : 'l';
      continue;
    }
    double width = word[i] + 2;
    if (min_total < line && extra_total > 0)
      width += (line - min_total) * (natural[i] - word[i]) / extra_total;
    double share = min_total < line ? width / line : (word[i] + 2) / min_total;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", share);
    const char* align = a == doc::Align::Right    ? "\\raggedleft"
                        : a == doc::Align::Center ? "\\centering"
                                                  : "\\raggedright";
    spec +=
        ">{" + std::string(align) + "\\arraybackslash}p{\\dimexpr" + buf + "\\linewidth-2\\tabcolsep\\relax}";
  }
  spec += "@{}";
  in_table_cell_ = wrap ? 2 : 1;

  if (!n.id.empty()) out_ += "\\phantomsection";
  label(n);
  out_ += "\\begin{longtable}[c]{" + spec + "}\n";
  if (!n.caption.empty() || n.attr("hand-number") || n.attr("label")) {
    mark(n.caption.empty() ? n.loc : n.caption.front().loc);
    begin_deferral();
    caption(n, opt_.labels ? &opt_.labels->table : nullptr, "\\bbtablecaption");
    out_ += "\\\\\n";
    end_deferral();
  }
  std::vector<const Node*> head, body;
  for (const auto& row : n.children) (row.has_class("header") && body.empty() ? head : body).push_back(&row);
  auto rows = [&](const std::vector<const Node*>& rs, bool header) {
    for (const Node* row : rs) {
      mark(row->loc);
      for (std::size_t i = 0; i < cols; ++i) {
        if (i) out_ += " & ";
        if (i < row->children.size()) {
          if (header) out_ += "\\bbth{";
          inlines(row->children[i].children);
          if (header) out_ += "}";
        }
      }
      out_ += " \\\\\n";
    }
  };
  out_ += "\\toprule\n";
  if (!head.empty()) {
    rows(head, true);
    out_ += "\\midrule\n\\endfirsthead\n\\toprule\n";
    rows(head, true);
    out_ += "\\midrule\n\\endhead\n";
  }
  out_ += "\\bottomrule\n\\endlastfoot\n";
  rows(body, false);
  out_ += "\\end{longtable}\n\n";
  in_table_cell_ = 0;
}

}  // namespace bb::writers
