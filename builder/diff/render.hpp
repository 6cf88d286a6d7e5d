// A number diff as people and tools read it (docs/diff.md): plain text for a terminal, Markdown for a
// pull request's job summary or comment, and JSON (stable, versioned) for tools.
#pragma once

#include <string>

#include "diff/compare.hpp"

namespace bb::diff {

// The two revisions compared, as the report names them.
struct Sides {
  std::string base,
      base_commit;  // the revision as named ("main", "merge-base of HEAD and main") and its commit
  std::string head, head_commit;  // "working tree" and "" when HEAD is the work tree
};

std::string render_text(const Report& r, const Sides& sides);
// Grouped by chapter (its place, across editions), the largest relative changes first; past a
// screenful of rows a chapter's rest is folded in <details>.
std::string render_markdown(const Report& r, const Sides& sides);
std::string render_json(const Report& r, const Sides& sides);

// "+7.5%", "−12%", "+0.004%": a relative change as the reports print it.
std::string percent(double relative);

// Rows of a chapter shown before the rest is folded (render_markdown).
inline constexpr std::size_t kScreenful = 12;
// Rows of changes in all, so that the Markdown stays well under the 1 MiB of a GitHub job summary.
inline constexpr std::size_t kMaxMarkdownRows = 2000;

}  // namespace bb::diff
