// What TeX's log says the manuscript must fix, as diagnostics at manuscript lines: references to
// labels that do not exist, and lines or pages that stick out of the page by more than a tolerance.
#pragma once

#include <filesystem>
#include <vector>

#include "diag/diagnostics.hpp"
#include "typeset/tex_log.hpp"
#include "writers/latex.hpp"

namespace bb::typeset {

// Overfull boxes up to this much are invisible in print (a hair into the margin); beyond it a
// reader sees text or a formula running into the margin.
constexpr double kOverfullTolerancePt = 5.0;

// Undefined references become errors; overfull boxes over the tolerance get `overfull` severity
// (a warning while typesetting, an error for `check pdf`). Each is reported at the manuscript line
// the book.tex line came from (`marks`), or at book.tex when the line is outside the chapters.
// Returns how many were reported.
int report_layout_problems(const TexLog& log, const std::vector<writers::SourceMark>& marks,
                           const std::filesystem::path& tex, Severity overfull, Diagnostics& diags);

// Reads book.srcmap (`tex line<TAB>path:line`, paths relative to `book_root`), the source map
// `bookbuild latex` writes beside book.tex. Empty when the file is missing or unreadable.
std::vector<writers::SourceMark> read_srcmap(const std::filesystem::path& srcmap,
                                             const std::filesystem::path& book_root);

}  // namespace bb::typeset
