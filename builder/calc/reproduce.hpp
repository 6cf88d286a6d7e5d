// `reproduce` and `verify-results`: regenerate every scenario's files with a hash manifest, and check them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calc/data.hpp"
#include "calc/engine.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// Lowercase hex sha256 of a byte string / a file.
std::string sha256_hex(const std::string& bytes);
std::string sha256_file(const std::filesystem::path& path);

// One scenario's committed results compared with a fresh computation.
struct ResultStatus {
  std::string scenario;
  int line = 0;                          // of the scenario in scenarios/book.json
  std::vector<std::string> stale_files;  // results/<id>.json|md|csv that differ or are missing
  std::string error;                     // the scenario does not compute (then nothing else is known)
  std::vector<std::pair<std::string, std::string>> artifacts;  // file -> fresh bytes
};

// Recomputes every scenario (arguments by reference first) and compares with results/.
std::vector<ResultStatus> check_results(const Data& data);
// The same with an engine that may already hold results (the one the book's numbers were computed by).
std::vector<ResultStatus> check_results(Engine& engine);

// The manifest (input and artifact hashes) for these fresh results, and whether the committed one equals it
// (a changed input makes it stale even when no result changes).
std::string manifest_for(const Data& data, const std::vector<ResultStatus>& statuses);
bool manifest_current(const Data& data, const std::vector<ResultStatus>& statuses);

// Computes results/<id>.json and <id>.md (and <id>.csv when there are operators) for every scenario
// and results/manifest.json, and lists the files that differ from what is committed. With `write`,
// rewrites those files (nothing is written when any scenario fails). Returns a short report.
Json reproduce(const Data& data, bool write);

// Re-hashes inputs and artifacts against the manifest and recomputes every scenario, comparing bytes.
// Returns the report; report["summary"]["ok"] says whether everything matched.
Json verify_results(const Data& data);

}  // namespace bb::calc
