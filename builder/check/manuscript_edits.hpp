// Rewriting typed numbers in the manuscripts as bound literals, for the binding assistant
// (`check numbers --suggest`): each edit is located on its line, then either written in place
// (atomically per file, every other byte kept) or shown as a unified diff that `git apply` takes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::check {

// Replace `literal`, found on `loc.line` (at `loc.col` when it stands there, else its only occurrence on
// the line), with `replacement`.
struct ManuscriptEdit {
  SourceLoc loc;
  std::string literal;
  std::string replacement;
};

struct EditOutcome {
  int applied = 0;        // edits located (and written, when writing)
  int files_changed = 0;  // files they change
  std::string diff;       // a unified diff of the changes, paths relative to the book root (a/…, b/…)
};

// Locates every edit; one that cannot be located, or whose literal sits in link text or inside a
// span's brackets, is skipped. With `write`, rewrites the files; the diff is made either way.
EditOutcome edit_manuscripts(const std::vector<ManuscriptEdit>& edits, const std::filesystem::path& root,
                             bool write);

}  // namespace bb::check
