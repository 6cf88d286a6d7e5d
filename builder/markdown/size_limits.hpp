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
// Elements (blocks and inlines) cmark-gfm may make of one file: 32,000 plus one per 32 bytes. The
// document tree costs about 0.9 KB an element, so this keeps a build within 40 MB + 30 bytes per
// byte of input; the real book's densest chapter makes 3,500 elements of 150 KB (limit: 36,600).
inline constexpr std::size_t kBaseElements = 32'000;
inline constexpr std::size_t kBytesPerElement = 32;
constexpr std::size_t element_limit(std::size_t bytes) {
  return kBaseElements + bytes / kBytesPerElement;
}

// Whether a file of `bytes` may be parsed; an error at the path when not.
bool within_file_size(std::size_t bytes, const std::filesystem::path& path, Diagnostics& diags);

// Reports what is over the file and table limits, each a located error; false when the file must not
// be parsed.
bool within_size_limits(std::string_view source, const std::filesystem::path& path, Diagnostics& diags);

// Counts cmark's nodes; over element_limit(bytes) is an error and false (the tree is not converted).
bool within_element_limit(cmark_node* root, std::size_t bytes, const std::filesystem::path& path,
                          Diagnostics& diags);

}  // namespace bb::markdown
