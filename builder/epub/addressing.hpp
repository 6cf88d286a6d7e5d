// The EPUB's addressing: one XHTML file per chapter, images under images/, links into the book's
// repository made absolute. Works on the EPUB's own copy of each chapter's tree, before it is written.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::epub {

struct ChapterFile {
  std::string key;                   // "ch04"
  std::string href;                  // "ch04.xhtml"
  std::filesystem::path manuscript;  // canonical path of the chapter's Markdown file
  std::set<std::string> ids;         // every id the chapter's XHTML will have
};

struct Addressing {
  std::vector<ChapterFile> chapters;
  std::filesystem::path repository_root;  // the folder repository paths are relative to
  // "https://github.com/o/n/blob/<commit>/", or "" when the book names no repository.
  std::string repository_blob;
  std::map<std::filesystem::path, std::string> images;  // canonical image path → href in the EPUB

  [[nodiscard]] const ChapterFile* chapter_by_key(std::string_view key) const;
  [[nodiscard]] const ChapterFile* chapter_by_path(const std::filesystem::path& canonical) const;
};

// Gives the chapter's ids the form the XHTML needs and records them: ids are made valid (see
// docs/epub.md), unique within the file (a repeated id gets `-2`, `-3`), and level-2 and level-3
// headings without one get `toc-N`, so that the navigation document can point at them.
std::set<std::string> assign_ids(doc::Node& root);

// The id the XHTML uses for an id or fragment written in a manuscript.
std::string xhtml_id(std::string_view id);

// Rewrites links, cross-references and images of `root` (the chapter `self`) to the EPUB's addresses.
// A link whose target cannot be inside the EPUB nor in the repository keeps its text without the
// link, with a warning; a remote image is an error (an EPUB carries its resources).
void rewrite_links(doc::Node& root, const ChapterFile& self, const Addressing& addressing,
                   Diagnostics& diags);

// The file a relative URL in a manuscript names: percent-escapes decoded, `.` and `..` resolved
// lexically (symbolic links inside the book are not followed, which keeps a build free of readlink).
std::filesystem::path local_path(const std::filesystem::path& manuscript, std::string_view url);

// Whether a URL names a scheme (https:, mailto:, ...) rather than a path.
bool has_scheme(std::string_view url);

}  // namespace bb::epub
