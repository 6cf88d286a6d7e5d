// `[book] bibliography`, `citation-style` and `references` in book.toml (docs/configuration.md,
// "Citations"): the bibliography files, confined to the book, read once when the configuration is.
#pragma once

#include <toml++/toml.h>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::book {

void read_citation_config(const toml::table& book, Config& cfg, Diagnostics& diags);

}  // namespace bb::book
