// The resolver's side of the book's own Lua filters (builder/bookfilters/): which of them run on a
// chapter, and what they may read of the resolved book (labels, calc results).
#pragma once

#include <vector>

#include "book/book.hpp"
#include "bookfilters/book_filters.hpp"
#include "diag/diagnostics.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/targets.hpp"

namespace bb::filters {

// Runs the filters of `stage` for the output `format` over `chapter` of edition `eb`. Labels are
// readable after resolution only (`targets` is complete then); calc results whenever there is an
// evaluator.
void run_book_filters(const std::vector<bookfilters::Program>& programs, book::Chapter& chapter,
                      const book::EditionBook& eb, const book::Config& config, const std::string& format,
                      book::FilterEntry::Stage stage, const TargetTable& targets, const Evaluator* evaluate,
                      Diagnostics& diags);

}  // namespace bb::filters
