// `bookbuild check numbers`: every placeholder and bound literal recomputed (done by the filters),
// translations binding the same calc keys as the source chapter, and an audit of numbers with units
// in the prose that are neither computed nor bound.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "check/citations.hpp"
#include "check/citations_settle.hpp"
#include "check/numbers_lock.hpp"
#include "check/parity.hpp"
#include "check/recompute_check.hpp"
#include "check/results_check.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::check {

// A number with a unit typed in prose, not tied to the calc library.
struct UnboundNumber {
  std::string edition;
  std::string chapter;
  SourceLoc loc;
  std::string text;  // "16 GB"
};

// Count nouns per language ("layers", "层", "слоёв"): a number followed by one is a typed fact the
// audit reports like a number with a unit. Read from `calculations/audit.json`:
// {"count_nouns": {"en": ["layers", ...], "zh-Hans": ["层", ...], "ru": [...]}}.
struct AuditWords {
  std::map<std::string, std::vector<std::string>> count_nouns;  // by language tag
  // The list for an edition language: the exact tag, else its prefix ("zh-Hant" -> "zh").
  const std::vector<std::string>& nouns_for(const std::string& lang) const;
};
AuditWords load_audit_words(const std::filesystem::path& calculations, Diagnostics& diags);

// What the audit finds in one chapter.
struct ChapterAudit {
  std::vector<UnboundNumber> unbound;     // typed in the prose, neither computed nor bound
  std::vector<UnboundNumber> typed;       // inside `[…]{.typed}`: deliberately typed, not a result
  std::vector<SourceLoc> empty_marks;     // `.typed` spans that hold no number the audit reports
  std::vector<SourceLoc> contradictions;  // spans both bound (calc=) and marked `.typed`
};
ChapterAudit audit_chapter(const book::Chapter& chapter, const book::Edition& edition,
                           const AuditWords& words);

// Finds numbers followed by a unit word (GiB, ms, TFLOPs, Gb/s, tokens/s, %, ×, 1e12 FLOPs, …) or by a
// count noun of the edition's language, in a chapter's prose: text outside code, math, links' targets,
// placeholders and bound literals.
std::vector<UnboundNumber> find_unbound_numbers(const book::Chapter& chapter, const book::Edition& edition,
                                                const AuditWords& words);

struct NumbersReport {
  std::vector<UnboundNumber> unbound;
  std::vector<UnboundNumber> typed;  // marked `.typed`: counted, never an error
  int parity_errors = 0;             // calc keys bound in one edition's chapter but not another's
  int structure_errors = 0;          // labels and numbered elements that differ between editions
  ResultsReport results;             // committed results, scenario references, catalogue sources
  CitationsReport citations;         // typed numbers checked against the results their text cites
  LockUpdate lock;                   // with --lock: the entries written to numbers.lock
  bool lock_written = false;
  RecomputeReport recompute;  // cited results of the real book recomputed by their calculation
};

// Runs the results check, the parity comparison and the audit; with `strict`, unbound numbers are errors.
NumbersReport check_numbers(const book::Book& book, const filters::Resolution& resolution, bool strict,
                            Diagnostics& diags);

// check_numbers for a book loaded one edition at a time (book::book_outline): add_edition while an
// edition's trees are loaded (the audit, and what the results check and the parity comparison read of
// the trees), finish once every edition was added and resolved.
class NumbersCheck {
 public:
  // `engine`: the engine the book's numbers were computed by, so that every result is computed once
  // in a run (nullptr: the check makes its own). Not used before finish(), nor by two threads.
  NumbersCheck(const book::Book& book, bool strict, Diagnostics& diags, calc::Engine* engine = nullptr);
  // `check numbers --lock`: numbers.lock is written anew at finish() from what the text says now.
  void write_lock(bool on) { write_lock_ = on; }
  void add_edition(const book::EditionBook& edition, Diagnostics& diags);
  NumbersReport finish(const book::Book& book, const filters::Resolution& resolution, Diagnostics& diags);

 private:
  bool strict_;
  bool write_lock_ = false;
  bool own_scenarios_ = false;  // the book computes its numbers (scenarios of bookbuild's own form)
  calc::Engine* engine_;
  NumbersLock lock_;
  std::filesystem::path root_;
  AuditWords words_;
  ScenarioLinks links_;
  NumberedElements numbered_;
  ResultFiles result_files_;
  NumbersReport report_;
};

// The machine-readable report (`--format json`).
std::string numbers_report_json(const book::Book& book, const filters::Resolution& resolution,
                                const NumbersReport& report, const Diagnostics& diags);

}  // namespace bb::check
