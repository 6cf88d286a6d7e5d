// Size limits of one manuscript, checked before cmark-gfm builds its tree: a file larger than any
// chapter, or a table of more cells than any book prints, would otherwise cost gigabytes and minutes
// (cmark-gfm alone takes ~200 bytes per node) before anything could be reported.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

#include "diag/diagnostics.hpp"

struct cmark_node;

namespace bb::markdown {

// A manuscript's size in bytes (the real book's largest chapter is about 0.2 MiB).
inline constexpr std::size_t kMaxFileBytes = std::size_t{8} << 20;
// Cells of one pipe table (rows × columns, header included).
inline constexpr std::size_t kMaxTableCells = 10'000;
// Elements (blocks and inlines) cmark-gfm may make of one file: 24,000 plus one per 64 bytes. A build
// costs about 1 KB an element (cmark-gfm's tree, the document tree, the pages) on top of ~13 MB for the
// process, so this keeps it within 40 MB + 30 bytes per byte of input (measured in docs/security.md);
// the real book's densest chapter makes 3,500 elements of 150 KB (limit: 26,300).
inline constexpr std::size_t kBaseElements = 24'000;
inline constexpr std::size_t kBytesPerElement = 64;
constexpr std::size_t element_limit(std::size_t bytes) {
  return kBaseElements + bytes / kBytesPerElement;
}

// Bytes cmark-gfm may hold while it parses a file of `bytes` (ParseMemory): room for the file's text
// four times over and for element_limit(bytes) elements at 320 bytes, more than any kind of cmark-gfm
// element takes (measured: 196 bytes a paragraph, 205 a list item, 258 a strikethrough with its text),
// so that a file within the element limit always parses and one far over it stops early. Real chapters
// peak at 6–14 bytes per byte of Markdown, a tenth of their budget.
inline constexpr std::size_t kParseBaseBytes = std::size_t{1} << 20;
inline constexpr std::size_t kParseBytesPerByte = 4;
inline constexpr std::size_t kParseBytesPerElement = 320;
constexpr std::size_t parse_budget(std::size_t bytes) {
  return kParseBaseBytes + bytes * kParseBytesPerByte + element_limit(bytes) * kParseBytesPerElement;
}

// Whether a file of `bytes` may be parsed; an error at the path when not.
bool within_file_size(std::size_t bytes, const std::filesystem::path& path, Diagnostics& diags);

// Reports what is over the file and table limits, each a located error; false when the file must not
// be parsed.
bool within_size_limits(std::string_view source, const std::filesystem::path& path, Diagnostics& diags);

// The error for a parse that ran out of its budget.
void over_parse_budget(std::size_t budget, std::size_t bytes, const std::filesystem::path& path,
                       Diagnostics& diags);

// Counts cmark's nodes; over element_limit(bytes) is an error and false (the tree is not converted).
bool within_element_limit(cmark_node* root, std::size_t bytes, const std::filesystem::path& path,
                          Diagnostics& diags);

}  // namespace bb::markdown
