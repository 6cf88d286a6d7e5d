// Charts from specs: a figure whose image is `x.chart.toml` is drawn for the chapter's edition (its
// SVG kept on the image as attribute `chart-svg`, for the figure cache to publish as `x.chart.svg`),
// and followed by the chart's data as a table (class `chart-data`) for readers who do not see it.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

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

// The charts drawn for one resolution of one edition, by spec file: a spec that many figures show (each
// copy of a chapter in the scale books) is read and drawn once per edition, and what drawing it said
// is said again at each. It lives no longer than that resolution: the spec files and the calc data are
// taken as they were when it began.
class ChartMemo {
 public:
  struct Drawn {
    std::optional<charts::Chart> chart;
    std::vector<Diagnostic> said;
  };
  [[nodiscard]] std::shared_ptr<const Drawn> find(const std::string& spec) const;
  void keep(const std::string& spec, std::shared_ptr<const Drawn> drawn);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Drawn>> drawn_;
};

// Draws every chart figure of a chapter; `root` is the book's folder (images' `asset` attributes are
// relative to it, set by resolve_links). With `memo`, each spec is drawn once for all the chapters of
// the edition that share it.
void resolve_charts(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                    const std::filesystem::path& root, Diagnostics& diags, ChartMemo* memo = nullptr);

}  // namespace bb::filters
