// Cross-edition parity, chapter by chapter: a translation carries the same labels, the same numbered
// figures, tables, equations, examples and experiments in the same order (so a label gets the same
// number in every language), as its source chapter. A difference is an error naming both places.
#pragma once

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

// Compares every translated chapter with the source edition's chapter; returns the number of errors.
int check_parity(const book::Book& book, const filters::Resolution& resolution, Diagnostics& diags);

}  // namespace bb::check
