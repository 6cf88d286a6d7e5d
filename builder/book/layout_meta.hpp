// Zero-config metadata: each edition's title, subtitle and the authors, from what the real layout
// has (the editions' Markdown home pages, README.md, prefaces), never one title for every language.
#pragma once

#include <filesystem>
#include <string>

#include "book/config.hpp"

namespace bb::book {

// The Markdown home page of edition `e` in the real layout: `website/index.md` for the Simplified
// Chinese original, `website/index.<id>.md` for the others (the source edition falls back to
// `website/index.md`). Empty when the book has none, or when the file lies outside the book.
std::filesystem::path markdown_home(const std::filesystem::path& root, const Edition& e, bool is_source);

// Fills `title` and `subtitle` of every edition of `cfg` and `cfg.title`/`cfg.authors` from what the
// book's files say (docs/configuration.md, "Zero-config"), recording in `cfg.origins` where each was
// read; what is not found stays empty (warn_missing_metadata reports it once book.toml is read).
void infer_metadata(const std::filesystem::path& root, Config& cfg);

}  // namespace bb::book
