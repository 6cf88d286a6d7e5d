// `batch-reuse`: one decode iteration of a dense Qwen3 model at several batch sizes on one device — shared
// weight reads, per-request KV, capacity, compute and memory lower bounds in exact fractions, and the
// compute/memory crossover batch. Ported from the real book's
// calculations/src/infra_calc/topics/batch_reuse.py (bojieli/ai-infra-book); the device and its strict
// BF16/FP32/tensor/dense peak come from configs/hardware.json.
#include <algorithm>
#include <cstdint>

#include "calc/calculations.hpp"
#include "calc/forward.hpp"
#include "calc/hardware.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

Rational decimal_of(const Json& v, const char* what) {
  if (v.is_number_integer()) return Rational::of(v.get<std::int64_t>());
  if (v.is_number_float()) return Rational::of_decimal(py_repr(v.get<double>()));
  throw Error(std::string(what) + " must be a number, got " + v.dump());
}

Rational scale(Rational a, std::int64_t factor) {
  return a * Rational::of(factor);
}

}  // namespace

Json batch_reuse_recompute(const Data& base, const Json& stored) {
  const Json& s = recorded_scenario(stored);
  auto text = [&](const char* key, const char* fallback) {
    if (!s.contains(key)) return std::string(fallback);
    if (!s[key].is_string()) throw Error(std::string(key) + " must be a string");
    return s[key].get<std::string>();
  };
  const std::string model = text("model", "qwen3-8b"), device = text("device", "h100-sxm");
  const Int history = s.contains("history") ? positive_int(s["history"], "history", true) : Int(2048);
  const Int workspace =
      s.contains("workspace_bytes") ? positive_int(s["workspace_bytes"], "workspace_bytes", true) : Int(0);
  std::vector<Int> batches = {1, 4, 16, 64};
  if (s.contains("batches") && !s["batches"].is_null()) {
    if (!s["batches"].is_array() || s["batches"].empty()) throw Error("Supply nonempty batches");
    batches = positive_int_list(s["batches"], "batch");
  }
  for (std::size_t i = 0; i < batches.size(); ++i)
    if (std::find(batches.begin(), batches.begin() + static_cast<std::ptrdiff_t>(i), batches[i]) !=
        batches.begin() + static_cast<std::ptrdiff_t>(i))
      throw Error("Duplicate batch");
  require_input(base, "configs/models/" + model + "/config.json");
  require_input(base, "configs/hardware.json");
  const Json& profile = base.device(device);
  const Json device_sources = base.device_sources(profile);
  const Data data = recompute_data(base, stored, model, device_sources);
  const ModelDims dims = model_dims(data.model(model));
  if (dims.adapter != Adapter::Qwen3Dense) throw Error("model " + model + " is not a dense Qwen3 model");
  ForwardScenario f;
  f.tokens = 1;
  f.history = history;
  f.output_head = "last";
  const ForwardResult work = compute_forward(dims, f, nullptr);
  // Dense matrices and affine norms are read once per ideal batch; the embedding is indexed per token.
  Int resident = 0, shared = 0;
  for (const auto& w : work.weights) {
    Int n = w.copies;
    for (Int x : w.shape) n *= x;
    resident += n * 2;
    if (w.name != "model.embed_tokens.weight") shared += n * 2;
  }
  const Int embedding = dims.hidden * 2;
  const Int unit = work.summary["kv_bytes_per_token_per_request"].get<std::int64_t>();
  const Int single_flops = work.summary["matrix_flops"].get<std::int64_t>();
  const Int kv_read = history * unit;
  const Int per_request = kv_read + unit + embedding;
  if (profile.value("spec_scope", "") != "single_device") throw Error("Single-device comparison required");
  const Json* peak = find_peak(profile, PeakKey{});
  if (!peak) throw Error("device " + device + " has no " + describe(PeakKey{}) + " peak");
  const Json& memory = member(profile, "memory", "the device");
  if (memory.value("nominal_capacity", Json()).is_null() ||
      memory.value("bandwidth_bytes_per_second", Json()).is_null())
    throw Error("Official capacity and bandwidth required");
  const Rational compute =
      scale(decimal_of((*peak)["tera_ops_per_second"], "tera_ops_per_second"), 1000000000000);
  const Rational bandwidth = decimal_of(memory["bandwidth_bytes_per_second"], "bandwidth_bytes_per_second");
  // int(Fraction(str(capacity)) * 10**9): truncated toward zero.
  const Rational capacity_r = scale(decimal_of(memory["nominal_capacity"], "nominal_capacity"), 1000000000);
  if (capacity_r.num < 0 || capacity_r.num / capacity_r.den > INT64_MAX)
    throw Error("nominal_capacity out of range");
  const Int capacity = static_cast<std::int64_t>(capacity_r.num / capacity_r.den);
  const Rational per_request_r = Rational::of(per_request);
  const Rational den = Rational::of(single_flops) * bandwidth / compute - per_request_r;
  Json crossover;
  if (Rational::of(0) < den) crossover = max(Int(1), ceil(Rational::of(shared) / den)).value();
  const Int maximum = max(Int(0), (capacity - resident - workspace) / ((history + 1) * unit));
  Json rows = Json::array();
  for (Int batch : batches) {
    const Int traffic = shared + batch * per_request;
    const Int footprint = resident + batch * (history + 1) * unit + workspace;
    const Int flops = batch * single_flops;
    const Rational compute_s = Rational::of(flops) / compute, memory_s = Rational::of(traffic) / bandwidth;
    const Rational lower = compute_s < memory_s ? memory_s : compute_s;
    const bool feasible = footprint <= capacity;
    const Rational throughput = Rational::of(batch) / lower;
    rows.push_back(
        Json{{"batch", batch.value()},
             {"matrix_flops", flops.value()},
             {"shared_weight_read_bytes", shared.value()},
             {"kv_history_read_bytes", (batch * kv_read).value()},
             {"kv_append_write_bytes", (batch * unit).value()},
             {"embedding_read_bytes", (batch * embedding).value()},
             {"declared_traffic_bytes", traffic.value()},
             {"serial_declared_traffic_bytes", (batch * (shared + per_request)).value()},
             {"saved_weight_read_bytes", ((batch - 1) * shared).value()},
             {"declared_resident_bytes", footprint.value()},
             {"capacity_feasible", feasible},
             {"matrix_intensity_exact", to_string(Rational::of(flops) / Rational::of(traffic))},
             {"compute_lower_ns_exact", to_string(scale(compute_s, 1000000000))},
             {"memory_lower_ns_exact", to_string(scale(memory_s, 1000000000))},
             {"runnable_lower_ns_exact", feasible ? Json(to_string(scale(lower, 1000000000))) : Json()},
             {"throughput_upper_tokens_per_second", feasible ? Json(throughput.to_double()) : Json()},
             {"dominant_resource", !(compute_s < memory_s) ? "compute" : "memory"}});
  }
  Json sources = data.model_sources(model);
  for (const auto& row : device_sources) sources.push_back(row);
  Json batch_list = Json::array();
  for (Int b : batches) batch_list.push_back(b.value());
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "batch-reuse";
  doc["scenario"] = Json{{"model", model},
                         {"device", device},
                         {"history", history.value()},
                         {"batches", batch_list},
                         {"workspace_bytes", workspace.value()}};
  doc["sources"] = sources;
  doc["selected_peak"] = *peak;
  doc["batch_reuse_rows"] = rows;
  doc["summary"] = Json{
      {"weight_resident_bytes", resident.value()},
      {"shared_decode_weight_read_bytes", shared.value()},
      {"kv_bytes_per_request_token", unit.value()},
      {"per_request_history_read_bytes", kv_read.value()},
      {"nominal_device_capacity_bytes", capacity.value()},
      {"declared_capacity_max_batch", maximum.value()},
      {"kv_history_equals_weights_batch",
       kv_read.value() ? Json(ceil(Rational::of(shared) / Rational::of(kv_read)).value()) : Json()},
      {"compute_memory_crossover_batch", crossover},
      {"crossover_capacity_feasible", !crossover.is_null() && Int(crossover.get<std::int64_t>()) <= maximum},
      {"single_request_matrix_flops", single_flops.value()},
      {"hardware_ridge_flops_per_byte_exact", to_string(compute / bandwidth)}};
  doc["assumptions"] = Json::array({
      "Official dense Qwen3 config with BF16 weights, activations and KV; the device's BF16-input, "
      "FP32-accumulate, dense tensor peak is selected strictly.",
      "One decode token per request per iteration at equal history; non-embedding weights are read once per "
      "batch, the embedding one row per request; each request reads its old KV once and writes its new KV "
      "once. Logical interface bytes, not measured HBM traffic.",
      "Capacity is the vendor's nominal GB x 10^9 holding all weights, end-of-step KV and the declared "
      "workspace; max(compute, memory) is a lower bound and its throughput an upper bound.",
  });
  return doc;
}

}  // namespace bb::calc
