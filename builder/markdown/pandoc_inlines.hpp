// Pandoc's inline syntax that cmark-gfm does not read: inline notes (`^[…]`, footnotes written in
// place) and sub- and superscripts (`H~2~O`, `x^2^`), on the document tree of one manuscript.
#pragma once

#include <string_view>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// Each `^[…]` becomes a footnote reference with its definition at the end of the document (key
// `inline-N`, never an author's key); one that is never closed is a warning and stays text.
void inline_notes(doc::Node& doc, Diagnostics& diags);

// `~x~` (one tilde each side, no space inside), which cmark-gfm reads as strikethrough, becomes a
// subscript as in Pandoc; `~~x~~` stays strikethrough, and `~a b~` too, with a warning. `^x^` (no
// space inside) in text becomes a superscript. `source` is the text cmark parsed.
void pandoc_scripts(doc::Node& doc, std::string_view source, Diagnostics& diags);

}  // namespace bb::markdown
