// Text width from the fonts the chart names (Noto Sans, and Noto Sans CJK SC for CJK), measured with
// FreeType from the files fontconfig finds: what decides whether a label fits its room.
#pragma once

#include <string>
#include <string_view>

namespace bb::charts {

// The family list an SVG chart names, in the order the measurement uses them.
inline constexpr const char* kFontFamily = "'Noto Sans', 'Noto Sans CJK SC', sans-serif";

// Width in px of `text` set at `px` (advance widths, no kerning: never narrower than the browser's).
// When the fonts cannot be found, `error` is set (once per process) and an estimate from display
// widths is returned.
double text_width(std::string_view text, double px, std::string& error);

}  // namespace bb::charts
