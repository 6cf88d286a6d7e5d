// What becomes of each typed number check_citations read: checked by numbers.lock, by the fitting rules
// or by nothing (with a reason code), waived, or a located error; and, with `check numbers --lock`, the
// lock written anew from what the text says now (docs/numbers.md, "The lock").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "check/citations.hpp"
#include "check/numbers_lock.hpp"

namespace bb::check {

struct SettleOptions {
  bool strict = false;         // a citing number neither checked nor waived is an error
  bool write_lock = false;     // --lock: make the entries anew instead of holding the text to them
  std::string source_edition;  // a translation's open entry takes the field its source edition locks
};

struct LockUpdate {
  std::vector<LockEntry> entries;    // the new lock, in the order of the book's files
  std::vector<std::string> changes;  // one line per entry added, changed or removed
  int added = 0, changed = 0, removed = 0;
};

// Sorts `report.read` into checked, unchecked (with reasons), waived and mismatches (errors at their
// numbers), holding every number `lock` has to its field: a changed digit, a changed or removed field
// and a locked number no longer found are errors. With `write_lock`, no lock error is reported and
// the update is returned instead.
LockUpdate settle_citations(CitationsReport& report, ResultFiles& results, const NumbersLock& lock,
                            const SettleOptions& options, Diagnostics& diags);

}  // namespace bb::check
