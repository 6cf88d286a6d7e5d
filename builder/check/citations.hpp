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
  std::string how;     // checked: "literal", "lock" (numbers.lock) or "rule" (the fitting rules)
  std::string reason;  // unchecked: no-field-fits, ambiguous, cites-missing-result, range-bound, …
  // A number derived from two fields (citations_derive.hpp): the operation and the second field
  // ("results/x.json#/b"); `result`/`field` name the first, `value` is what the two make.
  std::string derive, of;
  // unchecked because cites-missing-result: the data files its text cites that the book lacks
  // (under calculations/, as cited: "results/x.json").
  std::vector<std::string> missing;
};

// A typed number as the rules read it, before numbers.lock is applied (settle_citations): every typed
// number of a chapter's text, citing or not, so that a locked number is found again wherever it went.
struct ReadNumber {
  TypedNumber number;
  std::string file;  // the manuscript, from the book root
  std::string edition, chapter;
  std::string before, after;                // its sentence or table cell around it: a few words each side
  std::string clause_before, clause_after;  // its clause, for the names in it (bind_number)
  bool citing = false;                      // its text cites data the book has
  bool some_missing = false;                // and a result the book lacks
  std::vector<std::string> missing;         // those it lacks (under calculations/, as cited)
  int block = -1;  // its paragraph, list item, table row or caption (one number per block)
  std::vector<const ResultFile*> cited;
};

struct CitationsReport {
  int typed = 0;   // typed numbers with a unit in the chapters read
  int citing = 0;  // of those, in text citing a result present in the book (or locked to one)
  std::vector<CitationEntry> checked, unchecked, mismatches, waived;
  std::vector<std::pair<SourceLoc, std::string>> missing;  // citations of results not in the book
  // Every cited data file present in the book (path under calculations/ → path from the book root),
  // then split by whether `check numbers` recomputed it (a scenario of bookbuild's own form whose
  // results/<id>.json it is) or read it only as committed.
  std::map<std::string, std::string> cited;
  // Where each of them is cited: its links, and the references to footnotes that link it.
  std::map<std::string, std::vector<SourceLoc>> citing_places;
  std::vector<std::string> recomputed, not_recomputed;
  std::vector<ReadNumber> read;  // what check_citations read; settle_citations sorts them out
  int not_in_lock = 0;           // citing numbers checked by the rules that numbers.lock does not hold
  int lock_entries = 0;          // entries of numbers.lock (0: no lock)
  int blocks = 0;                // blocks read so far (ReadNumber::block)
  // The fields bound literals state, by block: a number beside them may derive from them.
  std::map<int, std::vector<std::pair<const ResultFile*, const ResultField*>>> block_fields;
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
  // Unchecked because fields of different values fit: the best named field of each value.
  std::vector<std::pair<const ResultFile*, const ResultField*>> candidates;
};
// `before`/`after`: the sentence around the number, whose names pick a row among rows that all fit.
BindOutcome bind_number(const TypedNumber& n, const std::vector<const ResultFile*>& cited,
                        std::string_view before = {}, std::string_view after = {});

// Reads one chapter: its bound literals are checked (an error at the literal when one disagrees), its
// other typed numbers are added to `report.read` for settle_citations. `root`: the book's folder.
void check_citations(const book::Chapter& chapter, const book::Edition& edition, ResultFiles& results,
                     CitationsReport& report, Diagnostics& diags, const std::filesystem::path& root = {});

// Whether a typed number states a field's value to the digits it shows, a tie rounding half away from
// zero (so that a changed last digit never fits): the test of a number locked to that field.
bool states(const TypedNumber& n, const ResultField& f);

// How many entries each way was checked (`by_how`: "literal", "lock", "rule") or each reason left them
// unchecked.
std::map<std::string, int> citation_counts(const std::vector<CitationEntry>& list, bool by_how);

// The `"citations"` key of `check numbers --format json`: {"typed", "citing", "checked", "unchecked",
// "mismatches", "missing"}; entries {"path", "line", "col", "text"} plus, when bound, {"result",
// "field", "value"}.
nlohmann::ordered_json citations_json(const CitationsReport& report, const std::filesystem::path& root);

}  // namespace bb::check
