// Public interface of the TeX-math-subset to MathML converter (issue 5): TeX in, presentation
// MathML out, with every problem reported as an error at a byte offset into the TeX.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::math {

// One problem in a formula. `offset` is the byte offset into the TeX source given to to_mathml
// (the backslash of an unsupported command, the brace that is never closed, ...).
struct MathError {
  std::size_t offset = 0;
  std::string message;
};

// An equation number written in a display formula as `\tag{6-1}` (or `\tag*{…}`). It is not part
// of the formula: the converter leaves it out of the MathML, and the caller numbers the equation
// with it (the filters set the node's number and id; each writer prints the number its own way).
struct EquationTag {
  std::string text;       // as the reader sees it, without parentheses: "6-1"
  bool starred = false;   // `\tag*`: printed as written, without parentheses
  std::size_t begin = 0;  // byte range of the whole `\tag{…}` in the TeX, to remove it
  std::size_t end = 0;
};

struct MathResult {
  // A complete <math> element: well-formed XML, presentation MathML only, the TeX kept as alttext.
  // Always produced, even when there are errors (offending parts become <merror>).
  std::string mathml;
  std::vector<MathError> errors;   // in source order; empty means the formula is fully supported
  std::optional<EquationTag> tag;  // the formula's `\tag`, when it has a valid one
};

// Converts one formula. `display` selects display="block" (a `$$` block) or display="inline".
MathResult to_mathml(std::string_view tex, bool display);

// The same, remembered for the life of the process (thread-safe): the formula check and every writer
// convert the same formulas, and `site --serve` converts them again on every change.
const MathResult& to_mathml_cached(const std::string& tex, bool display);

// Puts a result into that cache unless the formula is there already: a conversion done by an earlier
// run (the parse store keeps each chapter's, book/parse_store.hpp), valid only for the same converter.
void remember_mathml(const std::string& tex, bool display, MathResult result);

// The `\tag{…}` of a display formula, or nullopt when it has none (or only an invalid one, which
// to_mathml reports as an error). Uses the cache, so it costs nothing after the formula check.
std::optional<EquationTag> equation_tag(const std::string& tex);

// `tex` without the span of `tag` (for a writer that prints the number itself, e.g. LaTeX's own
// \tag next to a \label).
std::string without_tag(std::string_view tex, const EquationTag& tag);

// Where a byte offset inside the TeX falls, relative to the TeX's first byte, so that a caller who
// knows where the formula starts in the manuscript can report `path:line:col`:
//   line_delta == 0: the offset is on the formula's first line, `column` bytes after its start;
//   line_delta  > 0: the offset is on a later line, `column` bytes after that line's start.
// (Manuscript columns are 1-based byte columns, so: col = start_col + column, or 1 + column.)
struct TexPosition {
  std::size_t line_delta = 0;
  std::size_t column = 0;
};
TexPosition position_in(std::string_view tex, std::size_t offset);

}  // namespace bb::math
