// The build record `<out>/build.json` that `bookbuild build` writes last: every file of the build
// with its size and SHA-256, the book's commit, bookbuild's version, the seconds of each job and the
// warnings, so that a release or a CI log can say exactly what was published.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace bb::cli {

struct BuildRecord {
  std::string tool;     // "bookbuild 0.1.0 (commit …)"
  std::string version;  // "0.1.0"
  std::string commit;   // the book's commit, "" outside a repository
  std::vector<std::string> editions;
  std::vector<std::pair<std::string, double>> jobs;  // "epub en" → seconds, in the order they ended
  std::vector<std::string> warnings;                 // as printed, one per line
  double seconds = 0;                                // the whole run
};

// The record as JSON. `outputs` are files or folders (walked) under `out`; each file is listed once,
// by its path relative to `out`, sorted.
std::string build_record_json(const BuildRecord& record, const std::filesystem::path& out,
                              const std::vector<std::filesystem::path>& outputs);

// The warning lines of a diagnostics listing (`path:line:col: warning: …`).
std::vector<std::string> warning_lines(const std::string& printed);

}  // namespace bb::cli
