// `cache-sequence` as the real book's results record it: full-history KV accounting over a prompt and G
// decode calls for the native GQA layout and the MHA/MQA counterfactuals (cache_variants), with prefix
// reuse. Ported from the real book's calculations/src/infra_calc/topics/cache_sequence.py
// (bojieli/ai-infra-book), Qwen3 dense/MoE adapter (its Kimi K3 branch is not ported). bookbuild's own
// `calc cache-sequence` command (sequence.cpp) writes an older, shorter document for the project's book.
#include "calc/calculations.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

Int config_int(const Json& c, const char* key) {
  return positive_int(member(c, key, "the model config"), key);
}

}  // namespace

Json cache_variants_recompute(const Data& base, const Json& stored) {
  const std::string model = stored.value("model", "qwen3-8b");
  const Json& s = recorded_scenario(stored);
  auto get = [&](const char* key, std::int64_t fallback, bool allow_zero) {
    return s.contains(key) ? positive_int(s[key], key, allow_zero) : Int(fallback);
  };
  const Int batch = get("batch", 1, false), prompt = get("prompt", 8192, false),
            element_bytes = get("element_bytes", 2, false),
            recurrent_bytes = get("recurrent_bytes", 4, false);
  const Int steps = get("steps", 1024, true), prefix_hit = get("prefix_hit", 6144, true);
  if (prefix_hit > prompt) throw Error("Prefix hit cannot exceed prompt length");
  require_input(base, "configs/models/" + model + "/config.json");
  const Data data = recompute_data(base, stored, model);
  const Json& c = data.model(model).config;
  if (prompt + steps > config_int(c, "max_position_embeddings"))
    throw Error("Sequence exceeds pinned config context limit");
  const std::string type = c.value("model_type", "");
  if (type != "qwen3" && type != "qwen3_moe")
    throw Error("model_type '" + type + "': the cache-sequence port supports Qwen3 dense and MoE");
  if (c.contains("use_sliding_window") && c["use_sliding_window"].is_boolean() &&
      c["use_sliding_window"].get<bool>())
    throw Error("Full-history accounting does not support sliding-window Qwen");
  const Int heads = config_int(c, "num_attention_heads"), d = config_int(c, "head_dim"),
            layers = config_int(c, "num_hidden_layers"), hidden = config_int(c, "hidden_size");
  // Before each append: P, P+1, ..., P+G-1 records; the current token is separate.
  const Int history_records = steps * prompt + steps * (steps - 1) / 2;
  const Int visible = history_records + steps;
  // Recomputing the full prefix at every call: sum of n(n+1)/2.
  auto triangular_sum = [](Int n) { return n * (n + 1) * (n + 2) / 6; };
  const Int uncached = triangular_sum(prompt + steps) - triangular_sum(prompt);
  const Int suffix = prompt - prefix_hit;
  const Int full_pairs = prompt * (prompt + 1) / 2;
  const Int suffix_pairs = suffix * prefix_hit + suffix * (suffix + 1) / 2;
  Json rows = Json::array();
  struct Variant {
    const char* name;
    Int kv_heads;
  };
  for (Variant v : {Variant{"native_gqa", config_int(c, "num_key_value_heads")},
                    Variant{"counterfactual_mha", heads}, Variant{"counterfactual_mqa", 1}}) {
    const Int per_token = Int(2) * layers * v.kv_heads * d * element_bytes;
    const Int flops = Int(4) * layers * heads * d;
    const Int unit = batch * per_token;
    Json row = Json::object();
    row["name"] = v.name;
    row["reference"] = std::string(v.name) == "native_gqa";
    row["kv_heads"] = v.kv_heads.value();
    row["history_bytes_per_token"] = per_token.value();
    row["attention_flops_per_pair"] = flops.value();
    row["kv_projection_parameters"] = (Int(2) * layers * hidden * v.kv_heads * d).value();
    row["recurrent_bytes"] = 0;
    row["convolution_bytes"] = 0;
    row["initial_history_bytes"] = (prompt * unit).value();
    row["final_history_bytes"] = ((prompt + steps) * unit).value();
    row["final_persistent_state_bytes"] = ((prompt + steps) * unit).value();
    row["decode_prior_history_read_payload_bytes"] = (history_records * unit).value();
    row["decode_current_record_operand_bytes"] = (steps * unit).value();
    row["decode_visible_kv_operand_bytes"] = (visible * unit).value();
    row["decode_append_write_bytes"] = (steps * unit).value();
    row["decode_recurrent_read_plus_write_bytes"] = 0;
    row["decode_convolution_slot_read_plus_write_bytes"] = 0;
    row["decode_attention_matrix_flops"] = (batch * visible * flops).value();
    row["uncached_recompute_attention_matrix_flops"] = (batch * uncached * flops).value();
    row["full_prefill_attention_matrix_flops"] = (batch * full_pairs * flops).value();
    row["prefix_suffix_attention_matrix_flops"] = (batch * suffix_pairs * flops).value();
    row["full_prefill_history_write_bytes"] = (prompt * unit).value();
    row["prefix_suffix_history_write_bytes"] = (suffix * unit).value();
    row["prefix_checkpoint_payload_bytes"] = (prefix_hit * unit).value();
    row["final_capacity_saved_by_prefix_hit_bytes"] = 0;
    rows.push_back(std::move(row));
  }
  const Json& native = rows[0];
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "cache-sequence";
  doc["model"] = model;
  doc["scenario"] = Json{{"batch", batch.value()},
                         {"prompt", prompt.value()},
                         {"steps", steps.value()},
                         {"prefix_hit", prefix_hit.value()},
                         {"element_bytes", element_bytes.value()},
                         {"recurrent_bytes", recurrent_bytes.value()}};
  doc["sources"] = data.model_sources(model);
  doc["cache_variants"] = rows;
  doc["summary"] =
      Json{{"reference_variant", native["name"]},
           {"decode_prior_history_records_per_request", history_records.value()},
           {"decode_visible_pairs_per_request", visible.value()},
           {"uncached_recompute_pairs_per_request", uncached.value()},
           {"cached_decode_projection_rows", (batch * steps).value()},
           {"uncached_recompute_projection_rows", (batch * visible).value()},
           {"prefill_full_pairs_per_request", full_pairs.value()},
           {"prefill_suffix_pairs_per_request", suffix_pairs.value()},
           {"saved_prefill_pairs_per_request", (full_pairs - suffix_pairs).value()},
           {"saved_new_token_projection_rows", (batch * prefix_hit).value()},
           {"decode_prior_history_read_payload_bytes", native["decode_prior_history_read_payload_bytes"]},
           {"decode_append_write_bytes", native["decode_append_write_bytes"]},
           {"final_persistent_state_bytes", native["final_persistent_state_bytes"]},
           {"actual_hbm_traffic_bytes", nullptr}};
  doc["assumptions"] = Json::array({
      "P prompt tokens are processed before G one-token calls; call i reads P + i earlier records and "
      "appends "
      "one. MHA and MQA are architecture counterfactuals with the same query heads and head width.",
      "Logical payloads with ideal query-head reuse, not measured HBM traffic; prefix reuse skips C rows and "
      "C(C+1)/2 causal pairs while the suffix still attends to the cached prefix.",
  });
  return doc;
}

}  // namespace bb::calc
