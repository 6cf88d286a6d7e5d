// The calculations folder behind the book's numbers, checked as part of `check numbers`: scenario
// arguments given by reference resolve (no dangling reference, no cycle), every committed
// results/<id>.* equals a fresh computation (a stale one is reported with every manuscript line that
// cites it), the manifest matches its inputs, and catalogue values equal what their sources record.
#pragma once

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

struct ResultsReport {
  int scenarios = 0;
  int stale_scenarios = 0;
  int citations_of_stale = 0;
  int catalogue_problems = 0;
};

ResultsReport check_results(const book::Book& book, const filters::Resolution& resolution,
                            Diagnostics& diags);

// `../calculations/results/<id>.md` (or .json, .csv) in a link: the scenario id, else empty.
std::string scenario_of_link(const std::string& url);

}  // namespace bb::check
