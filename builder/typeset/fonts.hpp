// The fonts an edition names in book.toml (`[edition.fonts]`), looked up before XeLaTeX runs: a font
// fontspec would not find stops the PDF with an error at the line that names it, not three minutes
// into a TeX run with a message about the font loader.
#pragma once

#include <string_view>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::typeset {

// True when fontconfig (which XeTeX asks for a font by name) knows a font whose family, full name or
// PostScript name is `name`, ignoring case and spaces as fontconfig does.
bool font_installed(std::string_view name);

// An error at book.toml's line for every font of `look` that is not installed; true when all are.
bool check_fonts(const book::PrintLook& look, Diagnostics& diags);

}  // namespace bb::typeset
