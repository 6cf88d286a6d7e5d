// `[[filter]]` tables of book.toml: the book's own Lua filters (docs/filters.md).
#pragma once

#include <toml++/toml.h>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::book {

// Reads every `[[filter]]` of `doc` into `cfg.filters` (path inside the book's `filters/` folder, an
// existing `.lua` file; `outputs`, `editions` and `stage` checked), reporting problems at their place.
void read_filter_entries(const toml::table& doc, Config& cfg, Diagnostics& diags);

}  // namespace bb::book
