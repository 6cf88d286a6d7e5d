// What the outputs would refuse of an edition, found by `check` without writing one: every image the
// site and the EPUB would ship, through the very preparation they make (figures::FigureCache: a
// missing file, a Git LFS pointer, a truncated or mislabelled file, a PDF Poppler cannot render, an
// SVG refused for what it shows from outside the book), and the fonts its PDF names (typeset). The
// decisions live where the outputs take them; this module only asks them, so `check` reports each
// refusal at the same manuscript line in the same words.
#pragma once

#include <filesystem>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

// Reports, at the manuscript lines that use them, what the outputs would refuse of the edition's
// images; PDFs are rendered and SVGs cleaned into `figure_cache` (the outputs' own cache, so that the
// next build finds them there). Returns the number of image files looked at.
std::size_t check_figures(const book::Book& book, const book::EditionBook& edition,
                          const std::filesystem::path& figure_cache, Diagnostics& diags);

// An error at book.toml's line for every font the edition's PDF names that is not installed, as
// `bookbuild pdf` reports before it runs XeLaTeX.
void check_print_fonts(const book::EditionBook& edition, Diagnostics& diags);

}  // namespace bb::check
