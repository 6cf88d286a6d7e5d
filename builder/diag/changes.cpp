// Pairing two runs' diagnostics, and printing the difference.
#include "diag/changes.hpp"

#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>

namespace bb {

namespace {

// What two diagnostics must share to be the same problem, with or without their place.
using Key = std::tuple<std::string, int, int, Severity, std::string, std::string>;

Key key_of(const Diagnostic& d, bool place) {
  return {d.loc.path.generic_string(), place ? d.loc.line : 0,
          place ? d.loc.col : 0,       d.severity,
          std::string(kind_of(d)),     d.message};
}

// Pairs `before` with `after` on the key, marking what was paired.
void pair(const std::vector<Diagnostic>& before, const std::vector<Diagnostic>& after,
          std::vector<bool>& b_used, std::vector<bool>& a_used, bool place) {
  std::multimap<Key, std::size_t> open;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!b_used[i]) open.emplace(key_of(before[i], place), i);
  for (std::size_t j = 0; j < after.size(); ++j) {
    if (a_used[j]) continue;
    auto it = open.find(key_of(after[j], place));
    if (it == open.end()) continue;
    b_used[it->second] = a_used[j] = true;
    open.erase(it);
  }
}

}  // namespace

DiagnosticChanges diagnostic_changes(const std::vector<Diagnostic>& before,
                                     const std::vector<Diagnostic>& after) {
  std::vector<bool> b_used(before.size()), a_used(after.size());
  pair(before, after, b_used, a_used, true);
  pair(before, after, b_used, a_used, false);
  DiagnosticChanges out;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!b_used[i]) out.gone.push_back(before[i]);
  for (std::size_t j = 0; j < after.size(); ++j)
    if (!a_used[j]) out.added.push_back(after[j]);
  return out;
}

void print_changes(std::ostream& out, const DiagnosticChanges& changes, const std::vector<Diagnostic>& now,
                   const std::filesystem::path& base, PrintStyle style) {
  if (changes.empty()) return;
  std::ostringstream text;  // one write: std::cerr is unbuffered
  Diagnostics added;
  for (const auto& d : changes.added) added.add(d);
  added.print(text, base, style);
  for (const auto& d : changes.gone) text << "gone: " << format_diagnostic(d, base, true) << '\n';
  std::size_t errors = 0, warnings = 0;
  for (const auto& d : now) {
    errors += d.severity == Severity::Error;
    warnings += d.severity == Severity::Warning;
  }
  text << changes.added.size() << " new, " << changes.gone.size() << " gone; " << errors
       << (errors == 1 ? " error, " : " errors, ") << warnings << (warnings == 1 ? " warning" : " warnings")
       << " in all\n";
  out << text.str();
}

}  // namespace bb
