// The real book's calculations folder as a clone has it: scenarios/book.json grouped by topic, or a
// Git LFS pointer never fetched. Reported for what it is; no scenario of it is recomputed (cited results
// are, from what each records: recompute_check.hpp).
#pragma once

#include <filesystem>

#include "check/results_check.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

// When scenarios/book.json is not bookbuild's own list (calc/scenario_file.hpp), reports it — an LFS
// pointer as a warning, parts of unknown shape as warnings where they stand — counts its rows as not
// recomputed, and returns true: the caller then skips the checks that need bookbuild's own list.
bool check_scenario_form(const std::filesystem::path& calculations, ResultsReport& report,
                         Diagnostics& diags);

}  // namespace bb::check
