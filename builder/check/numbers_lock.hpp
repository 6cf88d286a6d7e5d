// `numbers.lock`: every typed number in text that cites a result, locked to the field it states, so that
// its check no longer depends on which fields happen to fit (docs/numbers.md, "The lock"). Written by
// `check numbers --lock`, read by every `check`. A reviewable TOML file at the book's root: one
// `[[number]]` per number, in the order of the book's files and of the numbers in them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::check {

struct LockEntry {
  int line = 0;        // of the entry in numbers.lock (for errors)
  std::string file;    // the manuscript, from the book root: "book-zh-tw/chapter01.md"
  std::string before;  // the text just before the number in its sentence or table cell
  std::string text;    // the number as typed: "148 倍"
  std::string after;   // the text just after it
  std::string field;   // "results/x.json#/a/b" (under calculations/), empty for an open entry
  // A number derived from two fields: the operation ("ratio", "complement", "difference", "sum") and
  // the second field; `field` is the first. Empty for a number that states one field.
  std::string derive, of;
  std::optional<double> value;          // the field's value when it was locked (for review)
  std::vector<std::string> candidates;  // an open entry's fitting fields, for a person to pick one
  std::string reason;                   // why an open entry is not locked (a reason code)
  std::string waive;                    // a person's reason to leave it unchecked
};

struct NumbersLock {
  std::filesystem::path path;  // <book>/numbers.lock
  bool present = false;
  std::vector<LockEntry> entries;
};

// Reads `<root>/numbers.lock` (absent: an empty lock). Problems are errors at the file's lines.
NumbersLock read_numbers_lock(const std::filesystem::path& root, Diagnostics& diags);

// The file's text for these entries (which must be in the order they are to be written).
std::string numbers_lock_text(const std::vector<LockEntry>& entries);

// `at` as it stands in the file: the context with the number marked, `before⟦text⟧after`.
std::string lock_place(const LockEntry& e);

}  // namespace bb::check
