// BibTeX field values as plain text: LaTeX accents and escapes to UTF-8, braces dropped, dashes and
// ties as their characters; and the `and`-separated list of names of an author field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bib/bibliography.hpp"

namespace bb::bib {

// `Erd{\H o}s -- {\"U}ber \& co.` → `Erdős – Über & co.`. A command it does not know keeps its
// argument (`\emph{x}` → `x`); nothing is ever dropped silently but the command's name.
std::string latex_to_text(std::string_view raw);

// "Smith, John and Ann Lee and {World Health Organization} and others": each name as family and
// given ("Last, First", "Last, Jr., First" or "First von Last"); `others` sets `more`.
std::vector<Name> split_names(std::string_view raw, bool& more);

}  // namespace bb::bib
