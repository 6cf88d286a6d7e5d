// An edition's home page written in Markdown (the real layout's website/index.md, index.<id>.md),
// in place of the generated one: its links to chapter manuscripts become links to their pages.
#pragma once

#include <optional>
#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "repo/repository.hpp"
#include "writers/html.hpp"

namespace bb::site {

// The HTML of edition `eb`'s Markdown home page, rendered with `options` (math, as the chapters), or
// nullopt when the book has none (the generated home page stays). Parse problems go to `diags`.
std::optional<std::string> markdown_home_html(const book::Book& book, const book::EditionBook& eb,
                                              const repo::Repository& repository,
                                              const writers::HtmlOptions& options, Diagnostics& diags);

}  // namespace bb::site
