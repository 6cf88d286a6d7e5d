// Running XeLaTeX on a written book until its references settle, and reporting TeX's errors at the
// manuscript place that produced them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "typeset/tex_log.hpp"
#include "writers/latex.hpp"

namespace bb::typeset {

struct TypesetOptions {
  std::filesystem::path dir;               // holds book.tex; xelatex runs here
  std::vector<writers::SourceMark> marks;  // book.tex line → manuscript place
  std::filesystem::path book_root;         // for the diagnostics' `tex` notes
  int max_passes = 3;
  std::string label;  // edition id, shown in the status line ("[pdf zh] xelatex pass 2/3")
};

struct TypesetResult {
  bool ok = false;
  int passes = 0;
  double seconds = 0;         // spent in XeLaTeX, all passes
  std::filesystem::path pdf;  // <dir>/book.pdf when ok
  TexLog log;                 // of the last pass
};

// The xelatex to run: $BOOKBUILD_XELATEX, else `xelatex` from PATH. Empty when there is none.
std::filesystem::path xelatex_program();

// xelatex_program(), or a FatalError with exit code 2 that says how to install XeLaTeX.
std::filesystem::path require_xelatex();

// Runs `xelatex -interaction=nonstopmode -halt-on-error -file-line-error` up to max_passes times,
// while a pass changes the .aux, .toc or .out it read (latexmk's rule). A TeX error becomes an error
// diagnostic at the manuscript place of the failing book.tex line, with TeX's message and the book.tex line
// in it; so does a reference to a label that does not exist (ok is then false). Boxes over
// kOverfullTolerancePt are warnings.
TypesetResult typeset(const TypesetOptions& options, Diagnostics& diags);

// Turns TeX errors into diagnostics at manuscript places (exposed for tests).
void report_tex_errors(const TexLog& log, const std::vector<writers::SourceMark>& marks,
                       const std::filesystem::path& tex, Diagnostics& diags);

}  // namespace bb::typeset
