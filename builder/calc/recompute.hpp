// A stored result recomputed by its calculation and compared field by field: equal, stale (the fields
// that differ, by JSON Pointer, with both values) or not recomputed, with the reason.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct FieldDiff {
  std::string pointer;     // RFC 6901, "/summary/finish_ns"
  std::string stored;      // as the reference writes it ("80000", "0.96", "[…3 items]", "(absent)")
  std::string recomputed;  // likewise
};

enum class RecomputeStatus { Equal, Stale, NotRecomputed };

// Why a result was not recomputed.
enum class NotRecomputedReason {
  None,
  NoCalculation,  // its "calculation" is not in the library (or it names none)
  MissingInput,   // a file it is computed from is not in the book (`missing` names it)
  LfsPointer,     // the result file itself is a Git LFS pointer never fetched
  Invalid,        // not JSON, or its scenario is refused by the calculation (`message` says why)
};

struct RecomputeOutcome {
  RecomputeStatus status = RecomputeStatus::NotRecomputed;
  NotRecomputedReason reason = NotRecomputedReason::None;
  std::string calculation;       // the stored "calculation"
  std::string missing;           // MissingInput: the path under calculations/
  std::string message;           // Invalid / MissingInput: the library's message
  std::vector<FieldDiff> diffs;  // Stale: every differing field
  Json fresh;                    // the recomputed document (Equal, Stale)
};

// Fields that hold the reference tool's prose rather than computed values — the `assumptions` list and
// every `note`/`notes` of a record (an operator's or a weight's commentary, written in the book's
// language): never compared, and carried from the stored result by `regenerate`.
bool is_prose_field(const std::string& pointer);

// Every field (leaf or shape) where `fresh` differs from `stored`; prose fields skipped. Scalars compare
// as the reference writes them (integers exact, floats by Python repr, 2 differs from 2.0).
std::vector<FieldDiff> compare_documents(const Json& stored, const Json& fresh);

// Recomputes a stored document with the calculation it names.
RecomputeOutcome recompute_document(const Data& data, const Json& stored);
// The same for a results/<id>.json file (an LFS pointer or a file that is not JSON is not recomputed).
RecomputeOutcome recompute_file(const Data& data, const std::filesystem::path& file);

// The document a calculation writes for `stored` with its prose (assumptions) taken from `stored`,
// so that `calc <command> --from results/x.json` reproduces the committed bytes.
Json regenerate(const Data& data, const Json& stored);

// A short name of a reason for reports: "no_calculation", "missing_input", "lfs_pointer", "invalid".
std::string reason_name(NotRecomputedReason reason);

// `verify-results` for a calculations folder in the real book's form (no manifest): every
// results/*.json recomputed by its calculation. summary.ok is false when any result is stale.
Json verify_recorded_results(const Data& data);

}  // namespace bb::calc
