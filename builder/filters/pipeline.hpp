// Resolving a loaded book, once, before any writer runs: numbering and the global target table for
// every edition, then cross-references, links, computed numbers and formula checks per chapter.
#pragma once

#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/targets.hpp"
#include "repo/repository.hpp"

namespace bb::filters {

struct ResolveOptions {
  const Evaluator* evaluate = nullptr;  // computed numbers; nullptr when the book has no calculations/
  // The repository lookup, when the caller already has one (the dev server keeps it between builds).
  const repo::Repository* repository = nullptr;
};

struct Resolution {
  TargetTable targets;
  std::vector<Binding> bindings;  // every placeholder and bound literal, in book order
  repo::Repository repository;    // the one lookup: top level, commit links are pinned to, URL
  std::string commit;             // repository.revision(), for reports
};

Resolution resolve(book::Book& book, Diagnostics& diags, const ResolveOptions& options = {});

}  // namespace bb::filters
