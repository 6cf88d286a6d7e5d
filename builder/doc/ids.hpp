// The id rule of the tree: one form of anchor id that HTML, XHTML, URL fragments and LaTeX labels all
// accept, so that every writer prints the id the filters decided.
#pragma once

#include <string>
#include <string_view>

namespace bb::doc {

// Keeps letters (any script), digits, `-`, `_`, `:` and `.`; every other run becomes `-`; an id that
// would be empty or start with a digit gets the prefix `id-`.
std::string sanitize_id(std::string_view s);

}  // namespace bb::doc
