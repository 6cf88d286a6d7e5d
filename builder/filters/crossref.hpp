// Cross-references: `@fig:x` / `[@fig:x]` citations and hand-written references in the prose
// ("图 4-5", "第 4.8.3 节", "Figure 4-5", "Section 4.8.3", "рис. 4-5", "第 6 章"), resolved against the
// global target table and turned into links every writer can follow.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "book/book.hpp"
#include "book/config.hpp"
#include "diag/diagnostics.hpp"
#include "filters/reference_scanner.hpp"
#include "filters/targets.hpp"
#include "lang/language.hpp"

namespace bb::filters {

struct CrossRefContext {
  const book::Edition& edition;
  const TargetTable& targets;
  std::set<int> chapters_in_build;  // chapter numbers present in this edition
  book::Policy plain_policy = book::Policy::Error;
  // Chapters that were refused unread (an error of their own: UTF-16, too large, …): their targets are
  // unknown, so a reference that may point into one is not reported too (one error per cause).
  std::set<int> chapters_unread;
};

void resolve_crossrefs(book::Chapter& chapter, const CrossRefContext& ctx, Diagnostics& diags);

}  // namespace bb::filters
