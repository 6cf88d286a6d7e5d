// The two outputs of the LaTeX path: `<out>/latex/<edition>/` (book.tex and figures) and
// `<out>/pdf/<name>-<edition>.pdf`, each swapped in only when complete.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "output/staging.hpp"
#include "typeset/book_tex.hpp"

namespace bb::typeset {

struct BuildOptions {
  std::filesystem::path out;  // the output root (<book>/build)
  bool quiet = false;
  // A PDF is to be typeset from the folder: LatexBook::key is computed (hashing the whole folder,
  // a quarter of a warm `latex` job's instructions when nothing would read it).
  bool typeset = false;
};

// Writes `<out>/latex/<edition>/`. TeX's auxiliary files from the previous build are carried over,
// so that an unchanged book settles in one XeLaTeX pass. Returns nullopt (and leaves the previous
// folder as it was) when there were errors.
std::optional<LatexBook> build_latex(const book::Book& book, const book::EditionBook& edition,
                                     const BuildOptions& options, Diagnostics& diags);

// build_latex in two steps, for a book written one edition at a time (`bookbuild latex`): the
// edition's folder is written aside while its trees are loaded, and swapped in later, once the whole
// book is known to have no errors. Dropping a StagedLatex removes the folder written aside. A folder
// that already holds exactly what would be written (latex_folder_is) is left as it is: no `staged`.
struct StagedLatex {
  std::filesystem::path target;               // <out>/latex/<edition>
  std::unique_ptr<output::StagedDir> staged;  // null: the folder is unchanged
  LatexBook result;
  std::string edition;
  std::size_t chapters = 0;
};
std::optional<StagedLatex> stage_latex(const book::Book& book, const book::EditionBook& edition,
                                       const BuildOptions& options, Diagnostics& diags);
LatexBook commit_latex(StagedLatex& staged, const BuildOptions& options);

// XeLaTeX on a written LaTeX folder, then the PDF written atomically. None of it when the stamp of the
// last typesetting says the PDF is already made from these very files (typeset_stamp.hpp): its layout
// warnings are then reported again from the log it kept. Safe to run for several editions at once in
// separate threads, each with its own `diags`. Returns the PDF's path on success.
std::optional<std::filesystem::path> typeset_pdf(const book::Book& book, const book::EditionBook& edition,
                                                 const LatexBook& tex, const BuildOptions& options,
                                                 Diagnostics& diags);

// build_latex, then typeset_pdf.
std::optional<std::filesystem::path> build_pdf(const book::Book& book, const book::EditionBook& edition,
                                               const BuildOptions& options, Diagnostics& diags);

}  // namespace bb::typeset
