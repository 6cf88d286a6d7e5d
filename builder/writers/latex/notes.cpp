// Footnotes in LaTeX. A footnote is typeset at its first reference with the number the HTML shows
// (its order of first reference in the chapter); later references print that number. Inside boxes,
// captions and headings, \footnote does not work, so the mark is printed there and the text after
// the block (deferral).
#include "writers/latex/writer.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

void LatexWriter::end_deferral() {
  if (--defer_depth_ > 0) return;
  auto pending = std::move(deferred_);
  deferred_.clear();
  for (const auto& [number, def] : pending) {
    out_ += "\\footnotetext[" + std::to_string(number) + "]{";
    footnote_body(def);
    out_ += "}\n";
  }
}

void LatexWriter::footnote_body(const Node* def) {
  if (!def) return;
  ++argument_depth_;
  for (std::size_t i = 0; i < def->children.size(); ++i) {
    const Node& b = def->children[i];
    if (b.kind == Kind::Paragraph) {
      mark(b.loc);
      inlines(b.children);
      if (i + 1 < def->children.size()) out_ += "\\par\n";
    } else {
      block(b);
    }
  }
  --argument_depth_;
}

void LatexWriter::footnote_ref(const Node& n) {
  int number = numbers_.count(n.text) ? numbers_[n.text] : 0;
  std::string num = std::to_string(number);
  auto def = defs_.find(n.text);
  if (def == defs_.end() || typeset_.count(n.text) || (argument_depth_ > 0 && defer_depth_ == 0)) {
    out_ += "\\bbfootref{" + num + "}";
    return;
  }
  typeset_.insert(n.text);
  if (defer_depth_ > 0) {
    out_ += "\\footnotemark[" + num + "]";
    deferred_.emplace_back(number, def->second);
    return;
  }
  out_ += "\\footnote[" + num + "]{";
  footnote_body(def->second);
  out_ += "}";
}

}  // namespace bb::writers
