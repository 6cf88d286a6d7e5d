// One edition as a self-contained LaTeX book: templates/latex/ filled with every chapter, and the
// figures beside it (SVG converted to PDF; PDF, PNG and JPEG copied).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "writers/latex.hpp"

namespace bb::latex {

inline constexpr const char* kTexName = "book.tex";

struct LatexBook {
  std::filesystem::path tex;               // <dir>/book.tex
  std::vector<writers::SourceMark> marks;  // book.tex line → manuscript place
  std::size_t figures = 0;
};

// Writes `<dir>/book.tex`, `<dir>/book.srcmap` (tab-separated: tex line, manuscript path:line) and
// `<dir>/figures/`. Problems (a missing image, an SVG that cannot be converted) go to `diags`. SVGs
// are converted through the content-hash cache in `figure_cache` (none when empty).
LatexBook write_latex_book(const book::Book& book, const book::EditionBook& edition,
                           const std::filesystem::path& dir, Diagnostics& diags,
                           const std::filesystem::path& figure_cache = {});

}  // namespace bb::latex
