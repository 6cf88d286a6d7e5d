// Syntax that other Markdown tools read and bookbuild does not: Pandoc citations (`[@smith2020]`) in a
// book without a bibliography, and a definition list whose term runs over several lines. Each is a warning at
// its place: nothing an author writes turns into literal text, or into another construct, in silence.
// (Alerts, fenced divs, inline notes, sub- and superscripts and definition lists are read: callouts.cpp,
// fenced_divs.cpp, inline_notes.cpp, scripts.cpp, definitions.cpp.)
#pragma once

#include <string_view>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// Warns about each such construct in `root`; about citations only when the book has no bibliography
// (`citations` false).
void warn_unsupported_syntax(const doc::Node& root, Diagnostics& diags, bool citations = false);

}  // namespace bb::markdown
