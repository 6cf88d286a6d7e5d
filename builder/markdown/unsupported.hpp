// Syntax that other Markdown tools read and bookbuild does not (yet): Pandoc citations (`[@smith2020]`),
// GitHub alerts (`> [!NOTE]`), fenced divs (`::: warning`), inline notes (`^[…]`), definition lists,
// and `H~2~O`, which GitHub's rule makes a strikethrough. Each is a warning at its place: nothing an
// author writes turns into literal text, or into another construct, in silence.
#pragma once

#include <string_view>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// Warns about each such construct in `root`, parsed from `source` (the manuscript's text).
void warn_unsupported_syntax(const doc::Node& root, std::string_view source, Diagnostics& diags);

}  // namespace bb::markdown
