// `bookbuild check numbers`: every placeholder and bound literal recomputed (done by the filters),
// translations binding the same calc keys as the source chapter, and an audit of numbers with units
// in the prose that are neither computed nor bound.
#pragma once

#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

// A number with a unit typed in prose, not tied to the calc library.
struct UnboundNumber {
  std::string edition;
  std::string chapter;
  SourceLoc loc;
  std::string text;  // "16 GB"
};

// Finds numbers followed by a unit word (GiB, ms, TFLOPs, %, …) in a chapter's prose: text outside
// code, math, links' targets, placeholders and bound literals.
std::vector<UnboundNumber> find_unbound_numbers(const book::Chapter& chapter, const book::Edition& edition);

struct NumbersReport {
  std::vector<UnboundNumber> unbound;
  int parity_errors = 0;
};

// Runs the parity comparison and the audit; with `strict`, unbound numbers are errors.
NumbersReport check_numbers(const book::Book& book, const filters::Resolution& resolution, bool strict,
                            Diagnostics& diags);

// The machine-readable report (`--format json`).
std::string numbers_report_json(const book::Book& book, const filters::Resolution& resolution,
                                const NumbersReport& report, const Diagnostics& diags);

}  // namespace bb::check
