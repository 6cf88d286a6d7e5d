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
inline constexpr std::size_t kMaxTableCells = 20'000;
// Elements (blocks and inlines) cmark-gfm makes of one file.
inline constexpr std::size_t kMaxElements = 500'000;

// Whether a file of `bytes` may be parsed; an error at the path when not.
bool within_file_size(std::size_t bytes, const std::filesystem::path& path, Diagnostics& diags);

// Reports what is over the file and table limits, each a located error; false when the file must not
// be parsed.
bool within_size_limits(std::string_view source, const std::filesystem::path& path, Diagnostics& diags);

// Counts cmark's nodes; over kMaxElements is an error and false (the tree is not converted).
bool within_element_limit(cmark_node* root, const std::filesystem::path& path, Diagnostics& diags);

}  // namespace bb::markdown
