// The print look of book.toml: `[edition.fonts]`, an edition's `pdf-cover`, and the book-wide `[pdf]`
// font rules (docs/configuration.md, "Print look").
#pragma once
#include <toml++/toml.h>

#include <string>
#include <string_view>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::book {

// Reads the print look of every `[[edition]]` of `doc` (matched by id) into `cfg.editions`, reporting
// problems at their place: a font name XeLaTeX could not take, a cover outside the book, missing or
// of a kind the PDF cannot show.
void read_print_config(const toml::table& doc, Config& cfg, Diagnostics& diags);

// A font family name bookbuild writes into LaTeX: letters of any script, digits, spaces and
// `- . , ' ( ) +`; nothing TeX would read as markup.
bool is_font_name(std::string_view name);

}  // namespace bb::book
