// book.toml's `[site]` table: old addresses kept as redirects, MkDocs heading ids (docs/configuration.md).
#pragma once

#include <toml++/toml.h>

#include <filesystem>

#include "book/config.hpp"

namespace bb::book {

// Reads `[site]` into `config`, whose editions are already read: `redirects` (old page path → "ch04",
// "en/ch04" or "en/index") and `mkdocs-ids`. Problems go to `diags` at their place in `file`.
void read_site_config(const toml::table& site, const std::filesystem::path& file, Config& config,
                      Diagnostics& diags);

}  // namespace bb::book
