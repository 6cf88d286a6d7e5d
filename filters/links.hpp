// Links: a link to another chapter's manuscript lands on that chapter (in every output); a link to a
// file elsewhere in the repository becomes an absolute URL pinned to the current commit; a link whose
// target is missing is reported (policy) and rendered as plain text.
#pragma once

#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/targets.hpp"

namespace bb::filters {

struct LinkContext {
  const book::Config& config;
  const book::EditionBook& edition;
  const TargetTable& targets;
  std::string commit;  // pinned revision for repository links ("HEAD" when unknown)
};

void resolve_links(book::Chapter& chapter, const LinkContext& ctx, Diagnostics& diags);

// The commit of the book's repository (`git rev-parse HEAD`), or "HEAD" when it is not a git checkout.
std::string repository_commit(const std::filesystem::path& root);

}  // namespace bb::filters
