// Computed numbers: `{{calc scenario.field | format}}` placeholders are evaluated and formatted in
// the edition's locale; bound literals `[133.59 TFLOPs]{calc=scenario.field}` render as typed and are
// checked against the recomputed value to the precision shown.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/number_format.hpp"
#include "text/interned.hpp"

namespace bb::filters {

// Evaluates a calc expression (`scenario.field.path` or an inline call); throws std::exception
// with a user-facing message on failure.
using Evaluator = std::function<Number(const std::string& expr)>;

// One placeholder or bound literal, as found and checked (for `check numbers` and its report).
struct Binding {
  // The edition id and chapter key, shared by every binding that has them (not a copy in each).
  text::Interned edition;
  text::Interned chapter;
  SourceLoc loc;
  std::string expr;
  bool literal = false;    // a bound literal (else a placeholder)
  std::string shown;       // what the reader sees
  std::string recomputed;  // the value recomputed now, in the literal's unit
  std::string tolerance;   // for literals: ± half a unit in the last shown place
  bool ok = true;
};

// Resolves every placeholder and bound literal in a chapter. Without an evaluator (a book with no
// calculations/), each one is an error saying so.
void resolve_calc_numbers(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                          std::vector<Binding>& bindings, Diagnostics& diags);

// How many placeholders and bound literals a tree holds: the most bindings resolving it can give.
std::size_t count_computed_numbers(const doc::Node& root);

// The expression a resolved computed number was evaluated from: a placeholder's (from its text) or a
// bound literal's (its attr `expr`, set when it was evaluated); empty for anything else.
std::string computed_expression(const doc::Node& n);

// Splits `calc expr | format` (the `calc` word is optional) into expression and format.
bool split_placeholder(std::string_view inner, std::string& expr, std::string& format);

}  // namespace bb::filters
