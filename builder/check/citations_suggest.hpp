// The binding assistant for a book that cites its results (`check numbers --suggest`): every typed
// number the citations check binds to a field of a cited result is proposed as a bound literal that
// names that field, `[1.5 TB/s]{result=results/x.json#/bandwidth_bytes_per_second}`, so that the
// binding no longer depends on which fields happen to fit.
#pragma once

#include <string>
#include <vector>

#include "book/book.hpp"
#include "check/citations.hpp"
#include "check/manuscript_edits.hpp"

namespace bb::check {

struct CitationSuggestion {
  CitationEntry number;  // a checked number, with the result and field it was bound to
  ManuscriptEdit edit;   // its text → `[text]{result=<file under calculations/>#<pointer>}`
};

std::vector<CitationSuggestion> suggest_citation_bindings(const book::Book& book);

// `results/x.json#/a/b` as a span attribute value: quoted when it holds a space, brace or quote.
std::string result_attribute(const std::string& file, const std::string& pointer);

}  // namespace bb::check
