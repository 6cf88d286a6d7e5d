// The HTML writer: renders a document tree as an HTML5 (or XHTML, for EPUB) fragment.
#pragma once

#include <functional>
#include <string>

#include "doc/tree.hpp"

namespace bb::writers {

struct HtmlOptions {
  bool xhtml = false;          // self-closing void elements and epub:type on notes (EPUB 3)
  bool block_markers = false;  // wrap top-level blocks for the dev server's partial page updates
  // Headings also carry their old ids (attr "mkdocs-id") as empty anchors: addresses from the book's
  // former site. Off for EPUB, whose ids must be XML names.
  bool alias_ids = false;
  // Renders a math node (InlineMath or DisplayMath); the default writes the escaped TeX in a span.
  std::function<std::string(const doc::Node&)> math;
  // The src of an image file of the book (attr `asset`: its path from the book root, set by the link
  // resolver). The default is the URL as written.
  std::function<std::string(const std::string& asset)> asset;
  // The href of a resolved target: (chapter key, anchor id) as set by the filters on CrossRef and
  // Link nodes. The default is `#id` (everything on one page).
  std::function<std::string(const std::string& chapter, const std::string& target)> xref;
  // Markup written before the top-level block at `index` of the chapter (the EPUB's print page
  // markers); none by default.
  std::function<std::string(std::size_t index)> before_block;
};

// Renders the blocks of a chapter, followed by its footnotes with back-links.
std::string render_html(const doc::Node& root, const HtmlOptions& options = {});

}  // namespace bb::writers
