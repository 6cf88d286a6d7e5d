// The global label table: every numbered or labelled target of every chapter of every edition,
// built once for the whole book before anything is split into pages or files.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::filters {

// What a reference can point at. The order is used for reference vocabulary lookups.
enum class TargetKind { Chapter, Section, Figure, Table, Equation, Example, Experiment };

const char* target_kind_name(TargetKind k);

struct Target {
  TargetKind kind = TargetKind::Section;
  std::string edition;  // edition id
  std::string chapter;  // chapter key ("ch04")
  std::string id;       // the stable anchor id ("fig-4-1")
  std::string number;   // "4-1", "4.2.3", "4"; empty when unnumbered
  std::string title;    // plain text of the heading or caption, for unnumbered section references
  SourceLoc loc;
  std::string label;  // the explicit label ("fig:x"), if any
};

class TargetTable {
 public:
  // Registers a target under its explicit label (may be empty; `t.label` is set to it) and its number.
  // Duplicate labels in one edition are errors at the second place.
  void add(const Target& t, const std::string& label, Diagnostics& diags);

  // By explicit label ("fig:x") within an edition.
  [[nodiscard]] const Target* by_label(const std::string& edition, const std::string& label) const;
  // By kind and number ("4-5") within an edition.
  [[nodiscard]] const Target* by_number(const std::string& edition, TargetKind kind,
                                        const std::string& number) const;
  // Every label of an edition, sorted (for "did you mean").
  [[nodiscard]] std::vector<std::string> labels_in(const std::string& edition) const;
  // Every label of an edition's chapter (for the cross-edition comparison).
  [[nodiscard]] std::vector<std::string> labels_of(const std::string& edition,
                                                   const std::string& chapter) const;

  // Whether `fresh` (a table holding one chapter, numbered again after its manuscript changed) has
  // the same targets for that chapter as this table: kinds, ids, numbers, titles and labels, in order.
  // Places may differ; take_places then moves them over (`site --serve`, docs/pipeline.md).
  [[nodiscard]] bool same_targets(const TargetTable& fresh, const std::string& edition,
                                  const std::string& chapter) const;
  void take_places(const TargetTable& fresh, const std::string& edition, const std::string& chapter);

 private:
  [[nodiscard]] const std::vector<std::size_t>& indices(const std::string& edition,
                                                        const std::string& chapter) const;

  std::vector<Target> targets_;
  std::map<std::pair<std::string, std::string>, std::size_t> labels_;
  std::map<std::tuple<std::string, TargetKind, std::string>, std::size_t> numbers_;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> chapter_labels_;
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> chapter_targets_;
};

}  // namespace bb::filters
