// Inlines in LaTeX: text, emphasis, code, math, links, cross-references and anchors.
#include "writers/latex/writer.hpp"

#include <algorithm>

#include "writers/escape.hpp"
#include "writers/latex/cell_math.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

std::string LatexWriter::render_inlines(const std::vector<Node>& v, bool plain_only) {
  std::string saved = std::move(out_);
  std::size_t saved_scanned = scanned_;
  int saved_line = line_;
  auto saved_marks = marks_.size();
  out_.clear();
  scanned_ = 0;
  bool saved_plain = plain_only_;
  plain_only_ = plain_only;
  inlines(v);
  plain_only_ = saved_plain;
  std::string r = std::move(out_);
  out_ = std::move(saved);
  scanned_ = saved_scanned;
  line_ = saved_line;
  marks_.resize(saved_marks);
  // Titles are one line: soft breaks become spaces.
  std::replace(r.begin(), r.end(), '\n', ' ');
  return r;
}

void LatexWriter::tied_text(std::string_view s) {
  // In a table's paragraph column the number may be wider than the column: there its spaces stay
  // breakable, as the column's width was fitted to words (a tie ran such cells into the margin).
  if (in_table_cell_ == 2) {
    text(s);
    return;
  }
  static constexpr std::string_view nbsp = "\u00A0";
  for (std::size_t i = 0;;) {
    const std::size_t space = std::min(s.find(' ', i), s.find(nbsp, i));
    text(s.substr(i, space - i));
    if (space == std::string_view::npos) return;
    out_ += '~';
    i = space + (s[space] == ' ' ? 1 : nbsp.size());
  }
}

void LatexWriter::code_text(std::string_view s) {
  for (std::size_t i = 0;;) {
    const std::size_t slash = s.find('/', i);
    text(s.substr(i, slash == std::string_view::npos ? slash : slash + 1 - i));
    if (slash == std::string_view::npos) return;
    if (slash + 1 < s.size()) out_ += "\\allowbreak{}";
    i = slash + 1;
  }
}

void LatexWriter::wrap(const char* command, const Node& n) {
  out_ += command;
  out_ += '{';
  inlines(n.children);
  out_ += '}';
}

void LatexWriter::inline_node(const Node& n) {
  if (!plain_only_) mark(n.loc);
  switch (n.kind) {
    case Kind::Text: text(n.text); break;
    case Kind::SoftBreak: out_ += in_table_cell_ ? " " : "\n"; break;
    case Kind::LineBreak:
      if (in_table_cell_ == 1)
        out_ += " ";
      else if (in_table_cell_ == 2)
        out_ += "\\newline ";
      else
        out_ += "\\\\\n";
      break;
    case Kind::Emph: wrap("\\emph", n); break;
    case Kind::Strong: wrap("\\textbf", n); break;
    case Kind::Strike: wrap("\\bbstrike", n); break;
    case Kind::Subscript: wrap("\\textsubscript", n); break;
    case Kind::Superscript: wrap("\\textsuperscript", n); break;
    case Kind::Code:
      out_ += "\\bbinlinecode{";
      code_text(n.text);
      out_ += "}";
      break;
    case Kind::InlineMath:
      // In a wrapping cell a formula may also break after its commas, as the column widths assume.
      out_ += "\\(" + latex_math(in_table_cell_ == 2 ? cell_math::allow_breaks(n.text) : n.text) + "\\)";
      break;
    case Kind::DisplayMath: out_ += "\\[" + latex_math(n.text) + "\\]"; break;
    case Kind::Link: link(n); break;
    case Kind::Image:
      if (plain_only_) break;
      out_ += "\\bbinlinegraphic{" + (opt_.image ? opt_.image(n) : n.url()) + "}";
      break;
    case Kind::FootnoteRef:
      if (!plain_only_) footnote_ref(n);
      break;
    case Kind::Anchor:
      if (plain_only_ || n.id().empty()) break;
      out_ += "\\phantomsection";
      label(n);
      break;
    case Kind::Span:
      if (!plain_only_ && !n.id().empty()) {
        out_ += "\\phantomsection";
        label(n);
      }
      if (n.attr("calc")) {  // a bound literal: a number, with its unit
        for (const auto& c : n.children) c.kind == Kind::Text ? tied_text(c.text) : inline_node(c);
        break;
      }
      inlines(n.children);
      break;
    case Kind::CrossRef:
    case Kind::CalcNumber: {
      if (n.children.empty()) {
        // Unresolved (the filters replace these): show the source so that nothing silently vanishes.
        text(n.kind == Kind::CrossRef ? "@" + n.text : "{{" + n.text + "}}");
        break;
      }
      const std::string* chapter = n.attr("chapter");
      if (n.kind == Kind::CrossRef && chapter && !plain_only_) {
        reference(n, *chapter);
      } else if (n.kind == Kind::CalcNumber) {
        for (const auto& c : n.children) c.kind == Kind::Text ? tied_text(c.text) : inline_node(c);
      } else {
        inlines(n.children);
      }
      break;
    }
    case Kind::HtmlInline: break;  // raw HTML is not rendered (see docs/manuscripts.md)
    default: break;
  }
}

void LatexWriter::reference(const Node& n, const std::string& chapter) {
  const std::string* t = n.attr("target");
  const std::string target = t ? *t : "";
  // A chapter left out of a sample has no \label to go to: its text, linked to the site if it has one.
  if (const auto url = opt_.elsewhere ? opt_.elsewhere(chapter, target) : std::nullopt) {
    if (!url->empty()) out_ += "\\href{" + escape_latex_url(*url) + "}{";
    inlines(n.children);
    if (!url->empty()) out_ += "}";
    return;
  }
  out_ += "\\hyperref[" + latex_key(chapter, target) + "]{";
  inlines(n.children);
  out_ += "}";
}

void LatexWriter::link(const Node& n) {
  if (plain_only_) {
    inlines(n.children);
    return;
  }
  if (const std::string* chapter = n.attr("chapter")) return reference(n, *chapter);
  LatexLink target;
  if (opt_.link) {
    target = opt_.link(n);
  } else {
    target.url = n.url();
  }
  if (!target.label.empty()) {
    out_ += "\\hyperref[" + target.label + "]{";
    inlines(n.children);
    out_ += "}";
  } else if (!target.url.empty()) {
    // An autolink shows the URL itself: \url lets it break across lines.
    if (doc::plain_text(n.children) == n.url()) {
      out_ += "\\url{" + escape_latex_url(target.url) + "}";
      return;
    }
    out_ += "\\href{" + escape_latex_url(target.url) + "}{";
    inlines(n.children);
    out_ += "}";
  } else {
    inlines(n.children);
  }
}

}  // namespace bb::writers
