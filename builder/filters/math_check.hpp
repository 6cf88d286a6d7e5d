// Checks every formula against the TeX subset the MathML converter supports, reporting each
// unsupported command or malformed group at its manuscript `path:line:col`.
#pragma once

#include "book/book.hpp"
#include "diag/diagnostics.hpp"

namespace bb::filters {

void check_math(const book::Chapter& chapter, Diagnostics& diags);

}  // namespace bb::filters
