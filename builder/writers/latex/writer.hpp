// The LaTeX writer's state, shared by its parts: writer.cpp (output, source map, labels),
// blocks.cpp, inlines.cpp, math.cpp, tables.cpp and notes.cpp (footnote deferral).
//
// Numbers are the book's own (Node::number, attr `label`, hand numbers), never LaTeX's counters:
// headings are starred with a manual TOC entry, captions print their label, and equations use \tag,
// so that print says "4.2.3" and "图 4-1" exactly where the site does. The macros used here
// (\bbchapter, \bbcaption, bbcallout, bbcode, ...) are defined in templates/latex/preamble.tex.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "writers/escape.hpp"
#include "writers/latex.hpp"

namespace bb::writers {

// `pattern` with its `{}` replaced by `number` ("图 {}" → "图 4-1").
std::string fill_pattern(const std::string& pattern, const std::string& number);

class LatexWriter {
 public:
  explicit LatexWriter(const LatexOptions& o) : opt_(o) {}

  LatexChapter run(const doc::Node& root);

 private:
  // --- output and source map (writer.cpp) ----------------------------------------------------
  void mark(const SourceLoc& loc);
  // The 1-based number of the output line being written.
  int mark_line();
  void text(std::string_view s) { append_escaped_latex(out_, s); }
  // A computed or bound number: its spaces (and no-break spaces) become ties, so that a line break
  // never parts the number from its unit ("252 tok/s", "15,26 ГиБ").
  void tied_text(std::string_view s);
  // Inline code: a line may break after each `/`, so that a path (`calculations/scenarios/book.json`)
  // never runs into the margin.
  void code_text(std::string_view s);
  void newline_if_needed() {
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }
  void label(const doc::Node& n);

  // --- blocks (blocks.cpp) -------------------------------------------------------------------
  void blocks(const std::vector<doc::Node>& v) {
    for (const auto& b : v) block(b);
  }
  void block(const doc::Node& n);
  // The number to print before a heading's text ("4.2", "第 4 章"), or "" when there is none or the
  // manuscript already typed it by hand ("## 4.1 …"); without the space that follows it.
  std::string heading_prefix(const doc::Node& n);
  void heading(const doc::Node& n);
  void callout(const doc::Node& n);
  void list(const doc::Node& n);
  void definition_list(const doc::Node& n);
  void code_block(const doc::Node& n);
  // The printed label of a numbered figure or table: attr `label` from the numbering filter, or the
  // hand number in the edition's words.
  std::string caption_label(const doc::Node& n, const std::string* pattern);
  void caption(const doc::Node& n, const std::string* pattern, const char* command = "\\bbcaption");
  void figure(const doc::Node& n);
  void graphic(const doc::Node& img);

  // --- display math (math.cpp), tables (tables.cpp) ------------------------------------------
  void display_math(const doc::Node& n);
  void table(const doc::Node& n);

  // --- footnotes (notes.cpp) -----------------------------------------------------------------
  void begin_deferral() { ++defer_depth_; }
  void end_deferral();
  void footnote_body(const doc::Node* def);
  void footnote_ref(const doc::Node& n);

  // --- inlines (inlines.cpp) -----------------------------------------------------------------
  std::string render_inlines(const std::vector<doc::Node>& v, bool plain_only);
  void inlines(const std::vector<doc::Node>& v) {
    for (const auto& n : v) inline_node(n);
  }
  void wrap(const char* command, const doc::Node& n);
  void inline_node(const doc::Node& n);
  void link(const doc::Node& n);
  // A CrossRef or Link to a place in chapter `chapter`: a \hyperref, or where opt_.elsewhere says.
  void reference(const doc::Node& n, const std::string& chapter);

  const LatexOptions& opt_;
  std::string out_;
  std::size_t scanned_ = 0;
  int line_ = 1;
  std::vector<SourceMark> marks_;

  std::map<std::string, const doc::Node*> defs_;
  std::map<std::string, int> numbers_;
  std::set<std::string> typeset_;
  std::vector<std::pair<int, const doc::Node*>> deferred_;
  int defer_depth_ = 0;
  int argument_depth_ = 0;

  std::set<std::string> labels_;
  bool plain_only_ = false;
  int in_table_cell_ = 0;  // 1: natural-width columns (no line breaks), 2: paragraph columns
  int enum_depth_ = 0;
};

}  // namespace bb::writers
