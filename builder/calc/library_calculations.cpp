// The calculations the library already computed for its own commands, recomputed from a stored result of
// the real book: its scenario, model and device become the inputs of forward, decode-budget and
// projection-bound; the model's sources are those the result recorded when the book has no source lock.
#include "calc/budget.hpp"
#include "calc/calculations.hpp"
#include "calc/forward.hpp"
#include "calc/hardware.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

std::string text_of(const Json& object, const char* key, const char* fallback) {
  if (!object.contains(key)) return fallback;
  if (!object[key].is_string() || object[key].get<std::string>().empty())
    throw Error(std::string(key) + " must be a non-empty string");
  return object[key].get<std::string>();
}

// A scenario key the library computes only for one value (the reference's fixed choice): refused otherwise.
void require_value(const Json& s, const char* key, const Json& expected) {
  if (s.contains(key) && s[key] != expected)
    throw Error(std::string(key) + " = " + s[key].dump() + ": only " + expected.dump() + " is computed");
}

double number_of(const Json& s, const char* key, double fallback) {
  if (!s.contains(key)) return fallback;
  if (s[key].is_boolean() || !s[key].is_number()) throw Error(std::string(key) + " must be a number");
  return s[key].get<double>();
}

Int int_of(const Json& s, const char* key, std::int64_t fallback, bool allow_zero) {
  return s.contains(key) ? positive_int(s[key], key, allow_zero) : Int(fallback);
}

}  // namespace

Json forward_recompute(const Data& base, const Json& stored) {
  const std::string model = text_of(stored, "model", "qwen3-8b");
  const Json& s = recorded_scenario(stored);
  require_input(base, "configs/models/" + model + "/config.json");
  const Data data = recompute_data(base, stored, model);
  ModelDims dims = model_dims(data.model(model));
  if (!is_dense(dims.adapter))
    throw Error("model " + model + " is not dense: MoE routing is not recorded here");
  ForwardScenario f;
  f.batch = int_of(s, "batch", 1, false);
  f.history = int_of(s, "history", 0, true);
  f.tokens = int_of(s, "tokens", 8192, false);
  f.output_head = text_of(s, "output_head", "last");
  f.weight_bytes = int_of(s, "weight_bytes", 2, false);
  f.activation_bytes = int_of(s, "activation_bytes", 2, false);
  f.kv_bytes = int_of(s, "kv_bytes", 2, false);
  f.score_bytes = int_of(s, "score_bytes", 4, false);
  return forward_document(data, compute_forward(dims, f, nullptr));
}

Json decode_budget_recompute(const Data& base, const Json& stored) {
  const Json& s = recorded_scenario(stored);
  require_value(s, "compute_input", "BF16");
  require_value(s, "accumulator", "FP32");
  require_value(s, "sparsity", "dense");
  DecodeBudgetInput in;
  in.batch = int_of(s, "batch", 1, false);
  in.parameters = int_of(s, "parameters", 70000000000, false);
  in.weight_bits = int_of(s, "weight_bits", 8, false);
  in.kv_history_bytes_per_request = int_of(s, "kv_history_bytes_per_request", 0, true);
  in.kv_append_bytes_per_request = int_of(s, "kv_append_bytes_per_request", 0, true);
  in.workspace_bytes = int_of(s, "workspace_bytes", 0, true);
  in.metadata_bytes = int_of(s, "metadata_bytes", 0, true);
  in.compute_multiplier = number_of(s, "compute_multiplier", 1.0);
  in.bandwidth_multiplier = number_of(s, "bandwidth_multiplier", 1.0);
  in.device = text_of(s, "device", "h100-sxm");
  require_input(base, "configs/hardware.json");
  Json doc = decode_budget_document(base, in);
  // Without a crossover the reference writes false here (topics/decode_budget.py), where bookbuild's own
  // `decode-budget` (and the project's committed results) write null.
  Json& fits = doc["summary"]["crossover_fits_declared_capacity"];
  if (fits.is_null()) fits = false;
  return doc;
}

Json projection_recompute(const Data& base, const Json& stored) {
  const std::string model = text_of(stored, "model", "qwen3-8b");
  const Json& s = recorded_scenario(stored);
  const std::string device = text_of(s, "device", "");
  require_value(s, "input_precision", "BF16");
  require_value(s, "accumulator_precision", "FP32");
  require_value(s, "output_precision", "BF16");
  require_value(s, "sparsity", "dense");
  require_value(s, "beta", 0);
  require_input(base, "configs/models/" + model + "/config.json");
  require_input(base, "configs/hardware.json");
  const Data data = recompute_data(base, stored, model, base.device_sources(base.device(device)));
  return projection_bound_document(data, model, device, int_of(s, "batch", 1, false),
                                   int_of(s, "tokens", 1, false));
}

}  // namespace bb::calc
