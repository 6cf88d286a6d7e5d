// The calculations folder behind the book's numbers, checked as part of `check numbers`: scenario
// arguments given by reference resolve (no dangling reference, no cycle), every committed
// results/<id>.* equals a fresh computation (a stale one is reported with every manuscript line that
// cites it), the manifest matches its inputs, and catalogue values equal what their sources record.
#pragma once

#include <set>
#include <string>

#include "book/book.hpp"
#include "calc/engine.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

struct ResultsReport {
  int scenarios = 0;
  int stale_scenarios = 0;
  int citations_of_stale = 0;
  int catalogue_problems = 0;
  int not_recomputed = 0;            // rows of the real book's scenarios/book.json no command here computes
  std::set<std::string> recomputed;  // ids of the scenarios recomputed (stale or not)
};

ResultsReport check_results(const book::Book& book, const filters::Resolution& resolution,
                            Diagnostics& diags);

// Links from a chapter's tree to the result files of scenarios: (scenario id, where), in order.
using ScenarioLinks = std::vector<std::pair<std::string, SourceLoc>>;
void scenario_links(const doc::Node& root, ScenarioLinks& out);
// check_results with the links gathered while the chapters were loaded (a book loaded one edition
// at a time): it reads no tree.
// `engine`: one that may already hold results (nullptr: a fresh one).
ResultsReport check_results(const book::Book& book, const filters::Resolution& resolution,
                            const ScenarioLinks& links, Diagnostics& diags, calc::Engine* engine = nullptr);

// `../calculations/results/<id>.md` (or .json, .csv) in a link: the scenario id, else empty.
std::string scenario_of_link(const std::string& url);

}  // namespace bb::check
