// Two snapshots of the book compared (diff/snapshot.hpp): every number that moves, in every edition, at
// its place in HEAD; the translations that still type a number their source edition changed (drift);
// the charts drawn anew; and the calculation data that changed, with how many numbers each change moves.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diff/snapshot.hpp"

namespace bb::diff {

struct Change {
  Kind kind = Kind::Computed;
  std::string edition, chapter, file;  // chapter key; the manuscript from the book root
  std::size_t chapter_index = 0;       // its place in the edition (editions share it)
  int line = 0, col = 0;               // in HEAD; in BASE when the number was removed
  std::string what;
  std::string before, after;       // "" when added (before) or removed (after)
  std::optional<double> relative;  // (after - before) / |before|, when both read as numbers of one kind
  std::optional<Reading> before_reading, after_reading;
};

// A translation's number that its source edition changed while the translation kept it.
struct Drift {
  std::string edition, chapter, file;
  std::size_t chapter_index = 0;
  int line = 0, col = 0;
  std::string text;  // what the translation still shows
  std::string source_file;
  int source_line = 0;
  std::string before, after;  // the source edition's change
};

// A chart whose drawing changed (or that is new) in an edition.
struct Redraw {
  std::string edition, file, spec;
  int line = 0;
};

struct FieldChange {
  std::string pointer;        // JSON Pointer of the value ("" for the whole file)
  std::string before, after;  // as JSON; "" when absent
  std::string owner;          // the scenario (enclosing "id"), model folder or file it belongs to
  int moves = 0;              // numbers of the diff whose expression or cited result names the owner
};

struct DataChange {
  std::string file;    // from the book root
  std::string status;  // "changed", "added", "removed"
  std::vector<FieldChange> fields;
  std::size_t more_fields = 0;  // changed values beyond those listed
};

struct Report {
  std::string source_edition;
  std::vector<std::string> editions;
  std::vector<std::string> titles;  // the source edition's chapter titles by place (HEAD)
  std::vector<Change> changes;      // by edition (book.toml order), file, line, column
  std::vector<Drift> drift;
  std::vector<Redraw> redraws;
  std::vector<DataChange> data;
  std::size_t base_errors = 0, head_errors = 0;
};

Report compare(const Snapshot& base, const Snapshot& head);

// Parts of compare(), each in its own file: drift (diff/drift.cpp) and the data files
// (diff/data_changes.cpp). `changes` are compare()'s.
std::vector<Drift> find_drift(const Snapshot& head, const std::vector<Change>& changes);
std::vector<DataChange> data_changes(const std::map<std::string, std::string>& before,
                                     const std::map<std::string, std::string>& after,
                                     const std::vector<Change>& changes);

// The values of a data file listed per file, at most this many.
inline constexpr std::size_t kMaxFieldsListed = 50;

}  // namespace bb::diff
