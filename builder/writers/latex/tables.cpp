// Tables in LaTeX: longtable with natural columns, or paragraph columns sized from the cells' text
// when the natural width does not fit the line, in a smaller size or turned when even that does not.
#include "writers/latex/writer.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "writers/latex/cell_math.hpp"
#include "writers/latex/cjk_width.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

namespace {

// The text width in "Latin characters" (CJK characters count two): the 138 mm text block of
// templates/latex/preamble.tex holds about 64 such units at the body sizes of every language.
constexpr double kLineWidthChars = 64;

// How a table is set, from the first of these in which its longest words fit side by side: at the
// body size; smaller; smaller still; turned on its side on a page of its own (the 210 mm text height
// instead of the 138 mm width). A table that fits none is set as the last and reported by TeX.
struct TableLayout {
  const char* size;  // a font size command, or ""
  double line;       // the line in Latin characters at that size and orientation
  bool landscape;
};
constexpr TableLayout kTableLayouts[] = {
    {"", kLineWidthChars, false},
    {"\\small", kLineWidthChars * 10 / 9, false},
    {"\\footnotesize", kLineWidthChars * 10 / 8, false},
    {"\\footnotesize", kLineWidthChars * 10 / 8 * 210 / 138, true},
};

// Code is set in a monospaced font, about 0.6 em a character where text averages 0.5 em; header
// cells are bold, a little wider.
constexpr double kCodeWidth = 1.2;
constexpr double kBoldWidth = 1.1;

struct CellMeasure {
  double natural = 0;  // the whole cell on one line
  double word = 0;     // its longest unbreakable run
};

CellMeasure measure(const std::vector<Node>& inlines) {
  CellMeasure m;
  for (const Node& n : inlines) {
    if (n.kind == Kind::InlineMath) {
      // A formula breaks only at its top-level relations, operators and commas (cell_math.hpp).
      for (std::string_view piece : cell_math::pieces(n.text)) {
        const double w = cell_math::width(piece);
        m.natural += w;
        m.word = std::max(m.word, w);
      }
      continue;
    }
    const bool code = n.kind == Kind::Code;
    const std::string text = code ? n.text : doc::plain_text(n);
    const double scale = code ? kCodeWidth : 1.0;
    m.natural += cjk::display_width(text) * scale;
    m.word = std::max(m.word, cjk::longest_word(text) * scale);
  }
  return m;
}

}  // namespace

void LatexWriter::table(const Node& n) {
  // A chart's data table is for readers of the screen outputs who do not see the chart; print has the chart.
  if (n.has_class("chart-data")) return;
  std::size_t cols = 0;
  for (const auto& row : n.children) cols = std::max(cols, row.children.size());
  if (cols == 0) return;
  // Column widths: natural columns when the widest row fits the line; else paragraph columns, each
  // at least as wide as its longest unbreakable word, the rest of the line shared in proportion to
  // how much more each column would like.
  std::vector<double> natural(cols, 1), word(cols, 1);
  for (const auto& row : n.children) {
    const double bold = row.has_class("header") ? kBoldWidth : 1.0;
    for (std::size_t i = 0; i < row.children.size(); ++i) {
      const CellMeasure m = measure(row.children[i].children);
      natural[i] = std::max(natural[i], m.natural * bold);
      word[i] = std::max(word[i], m.word * bold);
    }
  }
  double total = 0, min_total = 0, extra_total = 0;
  for (std::size_t i = 0; i < cols; ++i) {
    total += natural[i] + 2;
    min_total += word[i] + 2;
    extra_total += natural[i] - word[i];
  }
  const TableLayout* layout = std::end(kTableLayouts) - 1;
  for (const TableLayout& l : kTableLayouts) {
    if (total <= l.line || min_total <= l.line) {
      layout = &l;
      break;
    }
  }
  const double line = layout->line;
  bool wrap = total > line;
  std::string spec = "@{}";
  for (std::size_t i = 0; i < cols; ++i) {
    doc::Align a = i < n.aligns().size() ? n.aligns()[i] : doc::Align::None;
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
    // \hspace{0pt}: TeX never hyphenates the first word of a paragraph, and in a narrow cell that is
    // often the only word ("Bandwidth" in a header).
    spec += ">{" + std::string(align) + "\\arraybackslash\\hspace{0pt}}p{\\dimexpr" + buf +
            "\\linewidth-2\\tabcolsep\\relax}";
  }
  spec += "@{}";
  in_table_cell_ = wrap ? 2 : 1;

  if (layout->landscape) out_ += "\\begin{landscape}\n";
  if (*layout->size) out_ += "{" + std::string(layout->size) + "\n";
  if (!n.id().empty()) out_ += "\\phantomsection";
  label(n);
  out_ += "\\begin{longtable}[c]{" + spec + "}\n";
  if (!n.caption().empty() || n.attr("hand-number") || n.attr("label")) {
    mark(n.caption().empty() ? n.loc : n.caption().front().loc);
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
  out_ += "\\end{longtable}\n";
  if (*layout->size) out_ += "}\n";
  if (layout->landscape) out_ += "\\end{landscape}\n";
  out_ += "\n";
  in_table_cell_ = 0;
}

}  // namespace bb::writers
