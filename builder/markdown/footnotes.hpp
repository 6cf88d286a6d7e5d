// Footnote keys on the document tree of one manuscript, read back from its source.
#pragma once

#include <filesystem>
#include <string_view>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// cmark-gfm numbers footnotes in order of first reference; this gives references and definitions the
// author's key instead (stable ids across editions). `source` is the text cmark parsed.
void name_footnotes(doc::Node& doc, std::string_view source);

// Definitions that are duplicated (error) or never referenced (warning, since cmark-gfm drops them).
void check_footnote_definitions(const doc::Node& doc, std::string_view source,
                                const std::filesystem::path& path, Diagnostics& diags);

}  // namespace bb::markdown
