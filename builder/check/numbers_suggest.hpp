// The binding assistant (`bookbuild check numbers --suggest [--apply]`): for a book that types its
// numbers, every number with a unit (or a count noun) that the audit finds is compared with every
// result of the book's scenarios and every catalogue fact; one that equals a value at the precision
// printed gets a proposed binding, and `--apply` rewrites the manuscripts with bound literals, leaving
// every other byte as it was.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "check/manuscript_edits.hpp"
#include "check/numbers_check.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

struct Suggestion {
  UnboundNumber number;
  std::string literal;             // the part that becomes `[literal]{calc=expr}`: "16 GiB", "36"
  std::string expr;                // the chosen binding
  std::vector<std::string> other;  // other expressions with the same value at that precision
};

struct SuggestReport {
  int typed = 0;     // numbers the audit found
  int readable = 0;  // of those, numbers a bound literal can express (known unit or a count)
  std::vector<Suggestion> suggestions;
};

SuggestReport suggest_bindings(const book::Book& book, Diagnostics& diags, calc::Engine* engine = nullptr);

// Each suggestion as an edit of its manuscript: the literal becomes `[literal]{calc=expr}`.
std::vector<ManuscriptEdit> suggestion_edits(const SuggestReport& report);

}  // namespace bb::check
