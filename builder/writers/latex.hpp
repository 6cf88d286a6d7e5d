// The LaTeX writer: renders a chapter's document tree as LaTeX for XeLaTeX, with a source map from
// output lines back to manuscript places so that TeX errors can be reported at `path:line`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::writers {

// Where a link goes in print: a \label in the book (`label`), a URL (`url`), or nowhere (both
// empty: the link text is printed as plain text).
struct LatexLink {
  std::string label;
  std::string url;
};

struct LatexOptions {
  // The chapter's stable key ("ch04"): every \label of the chapter is `<chapter>:<id>`, and the
  // chapter itself is `<chapter>`.
  std::string chapter;
  // Caption words used when the numbering filter has not set attr `label` but the manuscript
  // numbered a figure or table by hand (attr `hand-number`), and the chapter label ("第 {} 章").
  const book::Labels* labels = nullptr;
  // Resolves a Link that the filters did not point at a chapter (attr `chapter`): external URLs,
  // links to other chapter files, links into the repository. The default keeps the URL.
  std::function<LatexLink(const doc::Node& link)> link;
  // The path \includegraphics should use for an Image (relative to the .tex file), or "" when the
  // image is not available (the writer then prints a placeholder). The default uses the URL.
  std::function<std::string(const doc::Node& image)> image;
  // Where a reference to chapter `chapter` (a CrossRef or Link with attr `chapter`) leads when that
  // chapter is not in the LaTeX being written (a sample chapter, `pdf --chapter N`): the site's address
  // of the target, or "" to print the reference's text alone. nullopt: the chapter is written, and the
  // reference is a \hyperref. Without it, every chapter is taken to be written.
  std::function<std::optional<std::string>(const std::string& chapter, const std::string& target)> elsewhere;
  // Marks each top-level block with \bbblock{pages::block_id} so that the XeLaTeX run records the
  // page it starts on in the .aux (the EPUB's page list, docs/epub.md). Changes no layout.
  bool block_marks = false;
};

// One entry of the source map: output line `line` (1-based) starts with text from `loc`.
struct SourceMark {
  int line = 0;
  SourceLoc loc;
};

struct LatexChapter {
  std::string tex;
  std::vector<SourceMark> marks;  // in increasing `line` order
};

// Renders one chapter (a Document node).
LatexChapter render_latex(const doc::Node& root, const LatexOptions& options = {});

// The \label key of an id in a chapter: latex_label("<chapter>:<sanitize_id(id)>").
std::string latex_key(std::string_view chapter, std::string_view id);

// TeX math from the manuscript made safe to pass through: blank lines (a paragraph end inside math
// is a TeX error) are dropped; a bare `%` (a TeX comment, which would swallow the closing delimiter)
// and a bare `$` are escaped; CJK outside \text{} is wrapped in \text{} (math fonts have none).
// Everything else is passed through unchanged.
std::string latex_math(std::string_view tex);

// The manuscript place of output line `line`: the last mark at or before it (empty loc if none).
SourceLoc map_line(const std::vector<SourceMark>& marks, int line);

}  // namespace bb::writers
