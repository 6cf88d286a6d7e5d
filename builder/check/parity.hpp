// Cross-edition parity, chapter by chapter: a translation carries the same labels, the same numbered
// figures, tables, equations, examples and experiments in the same order (so a label gets the same
// number in every language), as its source chapter. A difference names both places; it is an error,
// a warning or nothing as `[policy] edition-structure` says.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

// A numbered element as a reader sees it: "Figure 4-3".
struct Numbered {
  std::string kind;
  std::string number;
  SourceLoc loc;
};

// The numbered elements of a chapter's tree, in order: what the comparison reads of the trees, so
// that it can run after they are dropped (a book loaded one edition at a time).
std::vector<Numbered> numbered_elements(const doc::Node& root);

// The numbered elements of every chapter, by (edition id, chapter key).
using NumberedElements = std::map<std::pair<std::string, std::string>, std::vector<Numbered>>;

// Compares every translated chapter with the source edition's chapter; returns the number of
// differences reported (as errors or warnings).
int check_parity(const book::Book& book, const filters::Resolution& resolution, Diagnostics& diags);
// The same from the chapters' numbered elements gathered while they were loaded.
int check_parity(const book::Book& book, const filters::Resolution& resolution,
                 const NumberedElements& numbered, Diagnostics& diags);

}  // namespace bb::check
