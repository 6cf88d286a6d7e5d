// The builder's entry point: resolve `scenario.field.path` or an inline call to a typed value.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "calc/data.hpp"
#include "calc/json.hpp"
#include "calc/scenarios.hpp"

namespace bb::calc {

// One resolved number (or flag, text, null) and where it came from.
struct Value {
  enum class Kind { Integer, Float, Boolean, String, Null };
  Kind kind = Kind::Null;
  std::int64_t integer = 0;  // exact
  double number = 0;
  bool boolean = false;
  std::string text;
  std::string path;  // canonical source, e.g. "qwen3-8b-prefill-8192.summary.matrix_flops"

  // As the results files print it: exact integers, shortest round-trip floats, true/false/null.
  std::string to_string() const;
};

// Evaluates expressions against a calculations folder. Each scenario (and each distinct inline call)
// is computed at most once per Engine.
class Engine {
 public:
  explicit Engine(std::filesystem::path calculations_dir);

  // "qwen3-8b-prefill-8192.summary.matrix_flops", "qwen3-8b-prefill-8192.matrix_flops" (summary implied),
  // "qwen3-8b-prefill-8192.operators[q_proj].matrix_flops" (list items by key, never by position),
  // "forward(model=qwen3-8b, tokens=8192).summary.matrix_flops", or a catalogue fact:
  // "model(qwen3-8b).num_hidden_layers", "hardware(h100-sxm).peak(BF16, FP32, tensor, dense)", or a
  // formula over those, as in scenario arguments: "=model(qwen3-8b).num_key_value_heads *
  // model(qwen3-8b).head_dim". Errors are bb::calc::Error.
  Value evaluate(std::string_view expr);
  // The same, as the JSON value and its canonical path.
  std::pair<const Json&, std::string> lookup(std::string_view expr);

  // The full result of a named scenario (computed on first use, after the scenarios its arguments
  // refer to; a cycle is an Error naming it).
  const Json& scenario_result(std::string_view id);
  const std::vector<Scenario>& scenarios() const { return scenarios_; }
  const Data& data() const { return data_; }
  // How many results were computed so far (scenarios and inline calls); for cache tests.
  int computations() const { return computations_; }

 private:
  const Json& inline_result(std::string_view call, std::string& canonical);
  Data data_;
  std::vector<Scenario> scenarios_;
  std::map<std::string, Json, std::less<>> cache_;
  int computations_ = 0;
  std::vector<std::string> running_;  // scenarios being computed, for cycle detection
};

}  // namespace bb::calc
