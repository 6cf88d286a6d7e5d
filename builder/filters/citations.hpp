// Citations `[@key]`, `[see @a, p. 33; @b]`, `[-@a]` and `@a`, in a book with a bibliography
// (docs/manuscripts.md, "Citations"): planned once per edition in book order (which entries are cited,
// their numbers, where each list goes and its anchors), then resolved chapter by chapter into links to
// the entries of a "References" section.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/links.hpp"

namespace bb::filters {

struct CitationPlan {
  std::map<std::string, int> numbers;                     // key → number by first citation in the edition
  std::map<std::string, std::vector<std::string>> lists;  // chapter key → the keys its list holds
  std::map<std::string, std::string> list_of;             // chapter key → the chapter key holding its list
  std::map<std::string, std::string> heading_ids;         // chapter key → its list's heading id
  std::map<std::string, std::map<std::string, std::string>> anchors;  // chapter key → entry key → id
  std::set<std::string> citing;                                       // the chapters that cite
};

// Reads every chapter of the edition in order (their ids settled) and plans its reference lists; the
// anchors it adds are added to `ids`. Entries that cannot be formatted (no title) are warned about at
// their place in the bibliography, once per book (`warned`). Empty without a bibliography.
CitationPlan plan_citations(const book::Config& config, const book::EditionBook& eb, ChapterIds& ids,
                            std::set<std::string>& warned, Diagnostics& diags);

// Formats the chapter's citations and appends its reference list, as `plan` says; a bracketed citation
// of a key the bibliography lacks is an error at its place (with the nearest key), and stays as typed.
void resolve_citations(book::Chapter& ch, const book::Config& config, const book::Edition& edition,
                       const CitationPlan& plan, Diagnostics& diags);

// Whether the chapter's text cites anything (`site --serve` resolves the book again when it does).
bool has_citations(const book::Chapter& ch, const book::Config& config);

}  // namespace bb::filters
