// The HTML writer: renders a document tree as an HTML5 (or XHTML, for EPUB) fragment.
#pragma once

#include <functional>
#include <string>

#include "doc/tree.hpp"

namespace bb::writers {

struct HtmlOptions {
  bool xhtml = false;  // self-closing void elements and epub:type on notes (EPUB 3)
  // Renders a math node (InlineMath or DisplayMath); the default writes the escaped TeX in a span.
  std::function<std::string(const doc::Node&)> math;
  // Rewrites a link or image target (to another chapter's page, to the repository, ...).
  std::function<std::string(const std::string& url)> link;
};

// Renders the blocks of a chapter, followed by its footnotes with back-links.
std::string render_html(const doc::Node& root, const HtmlOptions& options = {});

}  // namespace bb::writers
