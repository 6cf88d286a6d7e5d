// Typed numbers checked against the results their text cites: a paragraph, list item, table row or
// footnote that links `../calculations/results/<name>.md` (or the book repository's URL of it),
// directly or through a footnote it carries, binds each number with a unit to the one field of
// results/<name>.json that it fits (dimension from the field's key, value to the digits shown). See
// docs/numbers.md for the rules.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/book.hpp"
#include "check/result_fields.hpp"
#include "check/typed_numbers.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

struct CitationEntry {
  SourceLoc loc;
  std::string text;    // "1.5 TB/s"
  std::string result;  // "calculations/results/x.json" (checked, mismatches)
  std::string field;   // JSON Pointer into it
  double value = 0;    // the field's value as stored (not converted)
  TypedNumber number;
  bool bound = false;  // a bound literal `[…]{result=…}`, not found by its citation
  int others = 0;      // other fitting fields that hold the same value (checked numbers)
};

struct CitationsReport {
  int typed = 0;   // typed numbers with a unit in the chapters read
  int citing = 0;  // of those, in text citing a result present in the book
  std::vector<CitationEntry> checked, unchecked, mismatches;
  std::vector<std::pair<SourceLoc, std::string>> missing;  // citations of results not in the book
  // Every cited data file present in the book (path under calculations/ → path from the book root),
  // then split by whether `check numbers` recomputed it (a scenario of bookbuild's own form whose
  // results/<id>.json it is) or read it only as committed.
  std::map<std::string, std::string> cited;
  // Where each of them is cited: its links, and the references to footnotes that link it.
  std::map<std::string, std::vector<SourceLoc>> citing_places;
  std::vector<std::string> recomputed, not_recomputed;
};

// Sorts the cited data files into recomputed and not recomputed, given the ids of the scenarios the
// results check recomputed.
void count_recomputed(CitationsReport& report, const std::set<std::string>& scenarios_recomputed);

// How a typed number stands against the fields of the results its text cites.
enum class Binding { Checked, Unchecked, Mismatch };
struct BindOutcome {
  Binding binding = Binding::Unchecked;
  const ResultFile* file = nullptr;
  const ResultField* field = nullptr;
  int others = 0;  // other fitting fields holding the same value
};
BindOutcome bind_number(const TypedNumber& n, const std::vector<const ResultFile*>& cited);

// Checks one chapter; a mismatch is an error at the number.
void check_citations(const book::Chapter& chapter, const book::Edition& edition, ResultFiles& results,
                     CitationsReport& report, Diagnostics& diags);

// The `"citations"` key of `check numbers --format json`: {"typed", "citing", "checked", "unchecked",
// "mismatches", "missing"}; entries {"path", "line", "col", "text"} plus, when bound, {"result",
// "field", "value"}.
nlohmann::ordered_json citations_json(const CitationsReport& report, const std::filesystem::path& root);

}  // namespace bb::check
