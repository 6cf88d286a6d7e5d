// `bookbuild check pdf`: what a reader of the PDF would notice, checked with Poppler.
#pragma once

#include <filesystem>
#include <vector>

#include <iosfwd>
#include <string>
#include <vector>
#include "book/config.hpp"

#include "book/book.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

struct PdfExpectations {
  std::vector<std::string> chapter_titles;  // in reading order: one top-level bookmark each
  std::filesystem::path tex_log;            // XeLaTeX's log, for missing-character warnings ("" to skip)
  std::filesystem::path book_root;          // where book.srcmap's manuscript paths start
  // book.toml's font rules (`[pdf]`, `[edition.fonts]` required/forbidden): each required font is
  // embedded, no forbidden one is (matched as a part of an embedded font's name, ignoring the subset
  // tag `ABCDEF+`, case, spaces, `-` and `_`).
  std::vector<book::PrintLook::Font> fonts_required, fonts_forbidden;
};

struct PdfFacts {
  int pages = 0;
  int top_bookmarks = 0;
  int fonts = 0;
  int unembedded_fonts = 0;
};

// Checks one PDF: it opens and has pages; one top-level bookmark per chapter, in order, titled like
// the chapter; every chapter title appears in the text; no U+FFFD and no `??` (an unresolved
// reference) in the text; every font embedded; no "Missing character", undefined reference or box
// more than 5 pt over the page in the XeLaTeX log. Problems are errors at the PDF's path, or at the
// manuscript line for the log's references and boxes.
// book.toml's font rules against the names of the fonts a PDF embeds: an error at `at` for each
// required font none of them is and each embedded font a rule forbids.
void check_font_rules(const std::vector<std::string>& embedded, const PdfExpectations& expect,
                      const SourceLoc& at, Diagnostics& diags);

PdfFacts check_pdf(const std::filesystem::path& pdf, const PdfExpectations& expect, Diagnostics& diags);

// Checks the PDF of every loaded edition in <out>/pdf (as written by `bookbuild pdf`), printing one
// summary line per edition to `out`.
void check_pdfs(const book::Book& book, const std::filesystem::path& out_dir, Diagnostics& diags,
                std::ostream& out);

}  // namespace bb::check
