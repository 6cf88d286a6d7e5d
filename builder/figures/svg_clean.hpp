// SVG hygiene for every output: one decision per figure, taken here and mapped by the site, the EPUB
// and LaTeX alike. A figure is parsed by libxml2 (svg_clean_module.cpp; no network, no entity
// expansion, no DTD) and cleaned of what could run or reach outside the book — scripts, event
// handlers, foreignObject, javascript: and other outside references — each removal a warning; a
// figure whose cleaning would change what the reader sees (it shows an image from outside the book)
// is refused with an error. Images it shows from inside the book are embedded (data: URLs), so that
// the cleaned figure stands alone wherever it is shipped. docs/security.md states the policy.
#pragma once

#include <cstddef>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::figures {

// The most of a figure file (an image, an SVG or a file it uses) that is read: a book's figures are
// untrusted, and no figure a page shows comes near it.
inline constexpr std::size_t kMaxFigureBytes = std::size_t{64} << 20;

struct SvgFinding {
  bool error = false;  // refused; otherwise a warning about something removed
  long line = 0;       // in the SVG
  std::string message;
};

struct CleanedSvg {
  std::optional<std::string> bytes;  // the cleaned document when it differs from the input
  std::vector<SvgFinding> findings;
  [[nodiscard]] bool refused() const;
};

// Cleans `data`, the SVG file `file`; `root` is the book's folder (references may name files inside
// it), or empty for the SVG's own folder. Throws FatalError when the XML module cannot be loaded.
CleanedSvg clean_svg(const std::string& data, const std::filesystem::path& file,
                     const std::filesystem::path& root);

struct FileId;

// The findings as diagnostic text: "figure `a.svg` line 4: …".
std::string svg_finding_text(const std::filesystem::path& file, const SvgFinding& finding);

// The file to ship for `svg`: the file itself when it needed no cleaning, else the cleaned copy in
// `cache_dir` (named by its SHA-256). Findings go to `findings`; nullopt when refused or unreadable.
// `identity`: the file's identity (memo.hpp) when the caller has just taken it, so that the file is
// not examined again; else it is taken here.
std::optional<std::filesystem::path> cleaned_svg_file(const std::filesystem::path& svg,
                                                      const std::filesystem::path& root,
                                                      const std::filesystem::path& cache_dir,
                                                      std::vector<SvgFinding>& findings,
                                                      const FileId* identity = nullptr);

// The same, reporting the findings at `loc`, the manuscript line that uses the figure.
std::optional<std::filesystem::path> cleaned_svg_file(const std::filesystem::path& svg,
                                                      const std::filesystem::path& root,
                                                      const std::filesystem::path& cache_dir,
                                                      const SourceLoc& loc, Diagnostics& diags,
                                                      const FileId* identity = nullptr);

}  // namespace bb::figures
