// Resolving a loaded book, once, before any writer runs: numbering and the global target table for
// every edition, then cross-references, links, computed numbers and formula checks per chapter.
#pragma once

#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/targets.hpp"

namespace bb::filters {

struct ResolveOptions {
  const Evaluator* evaluate = nullptr;  // computed numbers; nullptr when the book has no calculations/
  std::string commit;                   // pinned revision for repository links; looked up when empty
};

struct Resolution {
  TargetTable targets;
  std::vector<Binding> bindings;  // every placeholder and bound literal, in book order
  std::string commit;             // the repository revision links are pinned to
};

Resolution resolve(book::Book& book, Diagnostics& diags, const ResolveOptions& options = {});

}  // namespace bb::filters
