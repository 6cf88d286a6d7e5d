// What changed between two runs' diagnostics: `site --serve` prints after a save only the problems
// that are new, and names those that are gone, instead of the whole list again.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb {

struct DiagnosticChanges {
  std::vector<Diagnostic> added;  // in `after`, not in `before`
  std::vector<Diagnostic> gone;   // in `before`, not in `after`
  [[nodiscard]] bool empty() const { return added.empty() && gone.empty(); }
};

// Pairs the diagnostics of two runs: first those at the same place with the same severity, kind and
// message; then, of what is left, those in the same file with the same severity, kind and message,
// in order (a line added above a problem moves it, which does not make it new). What stays unpaired
// was added or is gone.
DiagnosticChanges diagnostic_changes(const std::vector<Diagnostic>& before,
                                     const std::vector<Diagnostic>& after);

// Prints the new diagnostics as Diagnostics::print does (`style`), each gone one as
// `gone: path:line:col: warning: message [kind]`, then one line of counts: "2 new, 1 gone; 3 errors,
// 458 warnings in all". Prints nothing when nothing changed.
void print_changes(std::ostream& out, const DiagnosticChanges& changes, const std::vector<Diagnostic>& now,
                   const std::filesystem::path& base, PrintStyle style);

}  // namespace bb
