// The numeric fields of a committed result (calculations/results/<name>.json), each with its JSON
// Pointer (RFC 6901) and the dimension its key names: `weight_bytes` bytes, `memory_service_seconds`
// seconds, `start_ns` nanoseconds, `matrix_flops` FLOP, `bytes_per_second` a byte rate, … .
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/typed_numbers.hpp"

namespace bb::check {

struct ResultField {
  std::string pointer;   // "/scenario/batch", "/operators/3/read_bytes"
  double value = 0;      // in the base unit of `dim` (seconds for `_ns` fields, …)
  Dim dim = Dim::Count;  // Count: the key names no unit (counts, ratios, shapes)
  double raw = 0;        // as stored in the file
};

struct ResultFile {
  std::string path;  // from the book root: "calculations/results/x.json"
  std::vector<ResultField> fields;
};

// The dimension and scale a key names (`read_bytes` → bytes, `delay_ns` → seconds × 1e-9).
std::pair<Dim, double> dim_of_key(const std::string& key);

// Result files read once per run, by name (`x` for results/x.json); nullptr when absent or not JSON.
class ResultFiles {
 public:
  ResultFiles(std::filesystem::path book_root, std::filesystem::path calculations);
  const ResultFile* get(const std::string& name);
  // Drops a file read earlier (after it was rewritten by a recomputation, or in tests).
  void put(const std::string& name, ResultFile file);

 private:
  std::filesystem::path root_, calculations_;
  std::map<std::string, std::optional<ResultFile>> files_;
};

}  // namespace bb::check
