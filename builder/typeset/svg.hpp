// SVG figures for print: converted to PDF with librsvg and cairo, so that they stay vector graphics,
// through the content-hash figure cache so that an unchanged SVG is converted once.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "figures/memo.hpp"

namespace bb::typeset {

// Converts `svg` to a one-page PDF of the SVG's own size at `pdf`. Returns "" on success, else the
// reason it failed (unreadable file, invalid SVG).
std::string svg_to_pdf(const std::filesystem::path& svg, const std::filesystem::path& pdf);

// The same through the cache folder `cache` (<out>/.cache/figures): the PDF is kept there under the
// SHA-256 of the SVG's bytes and the converter's settings, converted only when missing, and `pdf`
// becomes a hard link to it (a copy across file systems). An SVG that pulls in other files
// (<image href>) is keyed by its own bytes only. The entry an SVG gave is remembered in the cache's memo
// (figures/memo.hpp) while the file keeps its identity. An empty `cache` converts directly.
std::string svg_to_pdf_cached(const std::filesystem::path& svg, const std::filesystem::path& pdf,
                              const std::filesystem::path& cache);

// The cache entry itself (converted when missing), for a caller that places it later; nullopt with
// `error` set when the SVG cannot be read or converted. `cache` must not be empty. `identity`: the SVG's
// identity (figures/memo.hpp) when the caller has just taken it, else it is taken here; `entry_id`, when
// given, receives the identity of an entry that was found in the cache (left alone for one converted now).
std::optional<std::filesystem::path> svg_pdf_entry(const std::filesystem::path& svg,
                                                   const std::filesystem::path& cache, std::string& error,
                                                   const figures::FileId* identity = nullptr,
                                                   std::optional<figures::FileId>* entry_id = nullptr);

}  // namespace bb::typeset
