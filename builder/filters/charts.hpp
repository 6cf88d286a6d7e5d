// Charts from specs: a figure whose image is `x.chart.toml` is drawn for the chapter's edition (its
// SVG kept on the image as attribute `chart-svg`, for the figure cache to publish as `x.chart.svg`),
// and followed by the chart's data as a table (class `chart-data`) for readers who do not see it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "book/book.hpp"
#include "charts/chart.hpp"
#include "diag/diagnostics.hpp"
#include "filters/calc_numbers.hpp"

namespace bb::filters {

// True for an image path that names a chart spec.
bool is_chart_spec(std::string_view path);

// The drawing environment of an edition: calc through `evaluate` (every value an error without one),
// numbers in the edition's locale.
charts::Environment chart_environment(const book::Edition& edition, const Evaluator* evaluate);

// Draws one spec file for an edition (the `chart` command).
std::optional<charts::Chart> draw_chart(const std::filesystem::path& spec, const book::Edition& edition,
                                        const Evaluator* evaluate, Diagnostics& diags);

// Draws every chart figure of a chapter; `root` is the book's folder (images' `asset` attributes are
// relative to it, set by resolve_links).
void resolve_charts(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                    const std::filesystem::path& root, Diagnostics& diags);

}  // namespace bb::filters
