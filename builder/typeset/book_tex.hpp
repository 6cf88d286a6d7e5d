// One edition as a self-contained LaTeX book: templates/latex/ filled with every chapter, and the
// figures beside it (SVG converted to PDF; PDF, PNG and JPEG copied).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "figures/memo.hpp"
#include "writers/latex.hpp"

namespace bb::typeset {

inline constexpr const char* kTexName = "book.tex";

struct LatexBook {
  std::filesystem::path tex;               // <dir>/book.tex
  std::vector<writers::SourceMark> marks;  // book.tex line → manuscript place
  std::size_t figures = 0;
  std::string key;  // what the PDF depends on (typeset_stamp.hpp); set by stage_latex for a PDF
};

// What an edition's LaTeX folder holds: book.tex, book.srcmap (tab-separated: tex line, manuscript
// path:line) and figures/, planned before anything is written.
struct LatexFolder {
  std::string tex;
  std::string srcmap;
  // "figures/<n>-<name>.<ext>" → the file it is a hard link to (a copy across file systems): a PDF,
  // PNG or JPEG of the book, or an SVG's PDF in the figure cache.
  struct Link {
    std::string name;
    std::filesystem::path from;
    // `from`'s identity as the plan took it (each figure is examined once per run); nullopt when the
    // plan did not take it: latex_folder_is then does.
    std::optional<figures::FileId> id;
  };
  std::vector<Link> links;
};
struct PlannedLatex {
  LatexFolder folder;
  std::vector<writers::SourceMark> marks;  // book.tex line → manuscript place
  std::size_t figures = 0;
};

// Plans the folder. Problems (a missing image, an SVG that cannot be converted) go to `diags`. SVGs
// are converted through the content-hash cache in `figure_cache`; without one (empty), straight into
// `convert_dir`/figures/.
PlannedLatex plan_latex_book(const book::Book& book, const book::EditionBook& edition, Diagnostics& diags,
                             const std::filesystem::path& figure_cache,
                             const std::filesystem::path& convert_dir = {});

// Writes the planned folder's files into `dir` (made by the caller).
void write_latex_folder(const LatexFolder& folder, const std::filesystem::path& dir);

// True when `dir` holds exactly `folder` and nothing else but TeX's carried-over book.aux, book.toc
// and book.out: the same bytes in book.tex and book.srcmap, and each figure the very file (device
// and inode) it links to. Writing the folder again would give the same folder.
bool latex_folder_is(const std::filesystem::path& dir, const LatexFolder& folder);

// plan_latex_book, then write_latex_folder into `dir`.
LatexBook write_latex_book(const book::Book& book, const book::EditionBook& edition,
                           const std::filesystem::path& dir, Diagnostics& diags,
                           const std::filesystem::path& figure_cache = {});

}  // namespace bb::typeset
