// Inline math in table cells: where a formula may break across lines of a narrow cell, and how wide
// its pieces print, for choosing column widths (tables.cpp) and writing the cell (inlines.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bb::writers::cell_math {

// The formula cut where TeX may break it at its top level (outside braces and \left…\right): after
// a relation (=, <, \le, \approx, \to, …), a binary operator (+, -, \times, \cdot, …) or a comma or
// semicolon. The pieces' concatenation is the formula.
std::vector<std::string_view> pieces(std::string_view tex);

// The formula with `\allowbreak` after its top-level commas and semicolons: TeX breaks inline math
// after relations and binary operators by itself, never after punctuation (`n_Q,n_{\mathrm{KV}},d_h`
// would be one unbreakable box wider than a narrow column).
std::string allow_breaks(std::string_view tex);

// The printed width of TeX math in "Latin character" units (see cjk_width.hpp), roughly: a letter
// or digit one (a capital 1.4), punctuation with its following space 1.2, a command two (an
// operator with its spacing), scripts 0.7 of that.
double width(std::string_view tex);

}  // namespace bb::writers::cell_math
