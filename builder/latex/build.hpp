// The two outputs of the LaTeX path: `<out>/latex/<edition>/` (book.tex and figures) and
// `<out>/pdf/<name>-<edition>.pdf`, each swapped in only when complete.
#pragma once

#include <filesystem>
#include <optional>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "latex/book_tex.hpp"

namespace bb::latex {

struct BuildOptions {
  std::filesystem::path out;  // the output root (<book>/build)
  bool quiet = false;
};

// Writes `<out>/latex/<edition>/`. TeX's auxiliary files from the previous build are carried over,
// so that an unchanged book settles in one XeLaTeX pass. Returns nullopt (and leaves the previous
// folder as it was) when there were errors.
std::optional<LatexBook> build_latex(const book::Book& book, const book::EditionBook& edition,
                                     const BuildOptions& options, Diagnostics& diags);

// build_latex, then XeLaTeX, then the PDF written atomically. Returns the PDF's path on success.
std::optional<std::filesystem::path> build_pdf(const book::Book& book, const book::EditionBook& edition,
                                               const BuildOptions& options, Diagnostics& diags);

}  // namespace bb::latex
