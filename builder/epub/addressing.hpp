// The EPUB's addressing: one XHTML file per chapter and images under the package folder. Maps the
// destinations the link resolver decided (filters/links.hpp) to EPUB hrefs; decides nothing itself.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::epub {

struct ChapterFile {
  std::string key;   // "ch04"
  std::string href;  // "ch04.xhtml"
};

struct Addressing {
  std::vector<ChapterFile> chapters;
  std::map<std::string, std::string> images;  // asset (path from the book root) → href in the EPUB

  [[nodiscard]] const ChapterFile* chapter_by_key(std::string_view key) const;
};

// Rewrites the links, cross-references and images of `root` (the chapter `self`) to EPUB hrefs.
// A reference to a chapter this EPUB does not contain keeps its text without the link; a remote
// image is an error (an EPUB carries its resources).
void rewrite_links(doc::Node& root, const ChapterFile& self, const Addressing& addressing,
                   Diagnostics& diags);

}  // namespace bb::epub
