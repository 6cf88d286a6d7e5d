// Nesting limits: how deep block quotes, lists and inline containers may nest, enforced on cmark's
// tree before conversion and on the document tree after it, so that no later pass recurses deeper.
#pragma once

#include <filesystem>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

struct cmark_node;

namespace bb::markdown {

// Block levels: each block quote, list item and footnote definition around a block is one level.
inline constexpr int kMaxBlockNesting = 64;
// Inline levels: each emphasis, strong emphasis, strikethrough, link, image and bracketed span
// around an inline is one level.
inline constexpr int kMaxInlineNesting = 64;

// Reports content nested deeper than the limits (one error per kind of nesting, at the first place)
// and removes it from cmark's tree, so that the recursive conversion stays within the limits.
// Iterative: safe on any depth.
void bound_nesting(cmark_node* root, const std::filesystem::path& path, Diagnostics& diags);

// The same limits on the document tree (bracketed spans are found after conversion). Iterative.
void bound_nesting(doc::Node& root, Diagnostics& diags);

}  // namespace bb::markdown
