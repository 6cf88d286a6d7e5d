// Public interface of the TeX-math-subset to MathML converter (issue 5): TeX in, presentation
// MathML out, with every problem reported as an error at a byte offset into the TeX.
#pragma once

#include <cstddef>
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

struct MathResult {
  // A complete <math> element: well-formed XML, presentation MathML only, the TeX kept as alttext.
  // Always produced, even when there are errors (offending parts become <merror>).
  std::string mathml;
  std::vector<MathError> errors;  // in source order; empty means the formula is fully supported
};

// Converts one formula. `display` selects display="block" (a `$$` block) or display="inline".
MathResult to_mathml(std::string_view tex, bool display);

// The same, remembered for the life of the process (thread-safe): the formula check and every writer
// convert the same formulas, and `site --serve` converts them again on every change.
const MathResult& to_mathml_cached(const std::string& tex, bool display);

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
