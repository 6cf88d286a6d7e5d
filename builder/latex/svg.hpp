// SVG figures for print: converted to PDF with librsvg and cairo, so that they stay vector graphics.
#pragma once

#include <filesystem>
#include <string>

namespace bb::latex {

// Converts `svg` to a one-page PDF of the SVG's own size at `pdf`. Returns "" on success, else the
// reason it failed (unreadable file, invalid SVG).
std::string svg_to_pdf(const std::filesystem::path& svg, const std::filesystem::path& pdf);

}  // namespace bb::latex
