// Cited results of the real book recomputed: every result the text cites whose "calculation" the calc
// library has (calc/calculations.hpp) is recomputed from the scenario, model and sources it records and
// compared field by field; a stale one is an error at every place that cites it. Results of bookbuild's
// own scenarios are left to the results check (results_check.hpp), which recomputes them already.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calc/recompute.hpp"
#include "check/citations.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

struct RecomputedResult {
  std::string result;       // from the book root: "calculations/results/x.json"
  std::string calculation;  // as the result names it
  calc::RecomputeStatus status = calc::RecomputeStatus::NotRecomputed;
  std::string reason;   // not recomputed: no_calculation | missing_input | lfs_pointer | invalid
  std::string missing;  // missing_input: "calculations/<path>"
  std::string message;
  std::vector<calc::FieldDiff> fields;  // stale: every differing field
  int citing_places = 0;
};

struct RecomputeReport {
  std::vector<RecomputedResult> results;  // one per cited results/*.json, in path order
  int equal = 0, stale = 0, not_recomputed = 0;
  std::set<std::string> recomputed;  // the result ids recomputed (equal or stale)
};

// `skip`: result ids (results/<id>.json) another check recomputed already.
RecomputeReport check_recomputed(const std::filesystem::path& calculations, const CitationsReport& citations,
                                 const std::set<std::string>& skip, Diagnostics& diags);

// The `"recompute"` key of `check numbers --format json`.
nlohmann::ordered_json recompute_json(const RecomputeReport& report);

}  // namespace bb::check
