// What every reader of book.toml shares: a node's place in the file, and the file read (bounded) and
// parsed once, its problems located (book.toml, [publish], [site], [pdf], [[filter]], bibliography).
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <optional>

#include "diag/diagnostics.hpp"

namespace bb::book {

// Where `n` starts in `file`; a key that is absent (nullptr) is placed at the file's first line.
SourceLoc toml_place(const std::filesystem::path& file, const toml::node* n);

// book.toml read (at most 1 MiB: a page of settings) and parsed; an unreadable, oversized or
// malformed file is a located error and nullopt.
std::optional<toml::table> read_book_toml(const std::filesystem::path& file, Diagnostics& diags);

}  // namespace bb::book
