// Whether an edition's PDF is already what XeLaTeX would make of its LaTeX folder: a stamp per
// edition in <out>/.cache/pdf/, written after each successful typesetting, so that an unchanged book
// runs no XeLaTeX at all (latexmk's up-to-date test, on content rather than times).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "typeset/book_tex.hpp"

namespace bb::typeset {

// What the PDF depends on: book.tex, book.srcmap, each figure (its name, source, size and time) and
// the XeLaTeX program (its path, size and time: an upgrade of TeX Live typesets again).
std::string typeset_key(const LatexFolder& folder, const std::filesystem::path& xelatex);

struct TypesetStamp {
  std::filesystem::path cache;  // <out>/.cache/pdf
  std::string edition;
};

// The last typesetting's log, when the stamp says `pdf` is what XeLaTeX made from the folder `key`
// names (the same key, and `pdf` has the bytes then written); nullopt otherwise.
std::optional<std::string> stamped_log(const TypesetStamp& stamp, const std::string& key,
                                       const std::filesystem::path& pdf);

// Records a successful typesetting: the key, the PDF's checksum and TeX's log. Removed first by
// forget_stamp when a typesetting starts, so that a failed one leaves no stamp.
void save_stamp(const TypesetStamp& stamp, const std::string& key, const std::string& pdf_bytes,
                const std::string& log);
void forget_stamp(const TypesetStamp& stamp);

}  // namespace bb::typeset
