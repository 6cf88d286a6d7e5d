// The numeric fields of a cited data file (calculations/results/<name>.json, or any JSON under
// calculations/ that the text links), each with its JSON Pointer (RFC 6901) and the dimension its key
// names: `weight_bytes` bytes, `memory_service_seconds` seconds, `start_ns` nanoseconds, `matrix_flops`
// FLOP, `bytes_per_second` a byte rate, `history_bytes_per_token` bytes per token, … .
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/typed_numbers.hpp"

namespace bb::check {

struct ResultField {
  std::string pointer;     // "/scenario/batch", "/operators/3/read_bytes"
  double value = 0;        // in the base unit of `dim` (seconds for `_ns` fields, …)
  Dim dim = Dim::Count;    // Count: the key names no unit (counts, ratios, shapes)
  bool per = false;        // `dim` per something other than a second: `history_bytes_per_token`
  bool inherited = false;  // the unit is named by an enclosing key (`"boundaries_ns": {"pdl_chain": …}`)
  double raw = 0;          // as stored in the file (a fraction or a numeric string: its value)
  // What names its row: the text values of the objects around it ("family": "m4-max", "device_id":
  // …), each folded (row_label), one per line; a sentence that names one of them names the row.
  std::string row;
};

// A name folded for finding it in a sentence: ASCII letters lower-cased, ASCII spaces and punctuation
// dropped, other characters kept ("M4 Max" and "m4-max" both give "m4max").
std::string row_label(std::string_view text);

struct ResultFile {
  std::string path;  // from the book root: "calculations/results/x.json"
  std::string name;  // under calculations/, as cited and bound: "results/x.json"
  std::vector<ResultField> fields;
};

// A field of a file, as the checks point at it.
using FieldRef = std::pair<const ResultFile*, const ResultField*>;

// What a key says of its value: `read_bytes` bytes, `delay_ns` seconds × 1e-9, `history_bytes_per_token`
// bytes per token (per = true); a key that names no unit is a Count.
struct KeyUnit {
  Dim dim = Dim::Count;
  double scale = 1;
  bool per = false;
};
KeyUnit dim_of_key(const std::string& key);

// Data files read once per run, by their path under calculations/ (`results/x.json`,
// `configs/models/m/config.json`); nullptr when absent or not JSON.
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
