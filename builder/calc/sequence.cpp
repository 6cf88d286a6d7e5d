// Generation sums, KV state, cache-sequence and memory-concurrency models (see sequence.hpp).
#include "calc/sequence.hpp"

#include <cmath>

#include "calc/error.hpp"
#include "calc/forward.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {
namespace {

Int field(const Json& summary, const char* key) {
  return summary.at(key).get<std::int64_t>();
}

// Sum over G of an affine sequence f(0..G-1) from its first and last terms: exact, no loop.
Int affine_sum(Int first, Int last, Int count) {
  Int twice = (first + last) * count;
  if ((twice % 2).value() != 0) throw Error("internal: generation sum is not affine");
  return twice / 2;
}

void require_positive(Int v, const char* name) {
  if (v < 1) throw Error(std::string(name) + " must be a positive integer");
}

Int kv_per_token(const ModelDims& d, Int element_bytes) {
  return Int(2) * d.layers * d.kv_heads * d.head_dim * element_bytes;
}

}  // namespace

Json generate_document(const Data& data, const std::string& model, Int batch, Int history, Int steps) {
  ModelDims d = model_dims(data.model(model));
  if (!is_dense(d.adapter))
    throw Error("generate models dense decoders only; " + model + " is " + d.model_type +
                " (use forward with --routing for one MoE step)");
  require_positive(batch, "batch");
  require_positive(steps, "steps");
  if (history < 0) throw Error("history must be zero or a positive integer");
  ForwardScenario s;
  s.batch = batch;
  s.tokens = 1;
  s.history = history;
  ForwardResult first = compute_forward(d, s, nullptr);
  s.history = history + steps - 1;
  ForwardResult last = compute_forward(d, s, nullptr);
  const Json& f = first.summary;
  const Json& l = last.summary;
  const Int kvpt = field(f, "kv_bytes_per_token_per_request");
  const Int G = steps, S = history, B = batch;

  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = d.adapter == Adapter::Llama ? "llama-dense-generation" : "qwen3-dense-generation";
  doc["model"] = model;
  doc["scenario"] = Json{{"batch", B.value()},    {"history", S.value()},  {"steps", G.value()},
                         {"tokens_per_step", 1},  {"output_head", "last"}, {"weight_bytes", 2},
                         {"activation_bytes", 2}, {"kv_bytes", 2},         {"score_bytes", 4}};
  doc["sources"] = data.model_sources(model);
  Json sum = Json::object();
  sum["parameters"] = f["parameters"];
  sum["weight_resident_bytes"] = f["weight_resident_bytes"];
  sum["kv_bytes_per_token_per_request"] = kvpt.value();
  sum["kv_existing_history_read_bytes"] = (B * kvpt * (G * S + G * (G - 1) / 2)).value();
  sum["current_token_kv_payload_bytes"] = (B * G * kvpt).value();
  sum["kv_new_write_bytes"] = (B * G * kvpt).value();
  sum["final_kv_resident_bytes"] = (B * (S + G) * kvpt).value();
  for (const char* key : {"matrix_flops", "backbone_projection_ffn_flops", "causal_attention_matrix_flops",
                          "scalar_flops", "activation_operand_read_bytes", "activation_operand_write_bytes",
                          "kv_logical_query_head_operand_bytes"})
    sum[key] = affine_sum(field(f, key), field(l, key), G).value();
  sum["weight_read_once_per_step_bytes"] = (G * field(f, "weight_read_once_per_operator_bytes")).value();
  sum["first_step_matrix_flops"] = f["matrix_flops"];
  sum["last_step_matrix_flops"] = l["matrix_flops"];
  sum["peak_kv_plus_weights_bytes"] = (field(f, "weight_resident_bytes") + B * (S + G) * kvpt).value();
  doc["summary"] = sum;
  doc["assumptions"] = Json::array({
      "G decode calls of one token each follow a prefill of `history` tokens; step i attends to history + i "
      "earlier tokens plus itself.",
      "Every per-step count is affine in the history length, so totals are exact sums of G single-token "
      "forward calls (same operator graph and byte widths as forward).",
      "Weights are read once per step (no cross-step cache reuse); sampling and the prefill itself are not "
      "included.",
  });
  return doc;
}

Json state_document(const Data& data, const StateInput& in) {
  ModelDims d = model_dims(data.model(in.model));
  require_positive(in.length, "length");
  require_positive(in.batch, "batch");
  require_positive(in.element_bytes, "element-bytes");
  require_positive(in.recurrent_bytes, "recurrent-bytes");
  if (in.mla_path) throw Error("model " + in.model + " has no MLA attention; --mla-path does not apply");
  if (in.length > d.max_positions)
    throw Error("length exceeds max_position_embeddings = " + std::to_string(d.max_positions.value()));
  Int per_token = kv_per_token(d, in.element_bytes);
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "kv-state";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"length", in.length.value()},
                         {"batch", in.batch.value()},
                         {"element_bytes", in.element_bytes.value()},
                         {"recurrent_bytes", in.recurrent_bytes.value()},
                         {"mla_path", nullptr}};
  doc["sources"] = data.model_sources(in.model);
  Json s = Json::object();
  s["state_kind"] = "gqa_kv_cache";
  s["kv_layers"] = d.layers.value();
  s["kv_heads"] = d.kv_heads.value();
  s["head_dim"] = d.head_dim.value();
  s["kv_bytes_per_token_per_request"] = per_token.value();
  s["selected_history_bytes"] = (in.batch * in.length * per_token).value();
  s["resident_bytes"] = (in.batch * in.length * per_token).value();
  s["next_token_append_bytes"] = (in.batch * per_token).value();
  s["recurrent_state_bytes"] = 0;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "K and V of every layer and KV head are kept for every token at element_bytes each; no paging "
      "overhead, quantization scales or allocator slack.",
      "The supported adapters have no recurrent or MLA state: recurrent_bytes is recorded but contributes 0.",
  });
  return doc;
}

Json cache_sequence_document(const Data& data, const CacheSequenceInput& in) {
  ModelDims d = model_dims(data.model(in.model));
  require_positive(in.batch, "batch");
  require_positive(in.prompt, "prompt");
  require_positive(in.steps, "steps");
  require_positive(in.element_bytes, "element-bytes");
  require_positive(in.recurrent_bytes, "recurrent-bytes");
  if (in.prefix_hit < 0 || in.prefix_hit > in.prompt)
    throw Error("prefix-hit must be between 0 and the prompt length");
  if (in.prompt + in.steps > d.max_positions)
    throw Error("prompt + steps exceeds max_position_embeddings = " +
                std::to_string(d.max_positions.value()));
  const Int P = in.prompt, G = in.steps, C = in.prefix_hit, B = in.batch;
  auto tri = [](Int n) { return n * (n + 1) * (n + 2) / 6; };
  const Int history_records = G * P + G * (G - 1) / 2;
  const Int visible = history_records + G;
  const Int uncached_pairs = tri(P + G) - tri(P);
  const Int suffix = P - C;
  const Int suffix_pairs = suffix * C + suffix * (suffix + 1) / 2;
  const Int full_prefill_pairs = P * (P + 1) / 2;

  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "cache-sequence";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"batch", B.value()},
                         {"prompt", P.value()},
                         {"steps", G.value()},
                         {"prefix_hit", C.value()},
                         {"element_bytes", in.element_bytes.value()},
                         {"recurrent_bytes", in.recurrent_bytes.value()}};
  doc["sources"] = data.model_sources(in.model);
  Json variants = Json::array();
  struct Variant {
    const char* name;
    Int kv;
  };
  for (Variant v : {Variant{"native", d.kv_heads}, Variant{"mha", d.heads}, Variant{"mqa", 1}}) {
    Int per_token = Int(2) * d.layers * v.kv * d.head_dim * in.element_bytes;
    Int flops_per_pair = Int(4) * d.layers * d.heads * d.head_dim;
    Json j = Json::object();
    j["variant"] = v.name;
    j["kv_heads"] = v.kv.value();
    j["history_bytes_per_token"] = per_token.value();
    j["prefix_cache_bytes"] = (B * C * per_token).value();
    j["prompt_resident_bytes"] = (B * P * per_token).value();
    j["decode_history_read_bytes"] = (B * history_records * per_token).value();
    j["decode_append_bytes"] = (B * G * per_token).value();
    j["final_resident_bytes"] = (B * (P + G) * per_token).value();
    j["attention_flops_per_pair"] = flops_per_pair.value();
    j["suffix_prefill_attention_flops"] = (B * suffix_pairs * flops_per_pair).value();
    j["full_prefill_attention_flops"] = (B * full_prefill_pairs * flops_per_pair).value();
    j["cached_decode_attention_flops"] = (B * visible * flops_per_pair).value();
    j["uncached_decode_attention_flops"] = (B * uncached_pairs * flops_per_pair).value();
    variants.push_back(j);
  }
  Json s = Json::object();
  s["history_records_per_request"] = history_records.value();
  s["visible_records_per_request"] = visible.value();
  s["uncached_recompute_pairs_per_request"] = uncached_pairs.value();
  s["suffix_tokens"] = suffix.value();
  s["suffix_prefill_pairs_per_request"] = suffix_pairs.value();
  s["full_prefill_pairs_per_request"] = full_prefill_pairs.value();
  const Json& native = variants[0];
  for (const char* key : {"history_bytes_per_token", "decode_history_read_bytes", "decode_append_bytes",
                          "final_resident_bytes", "prefix_cache_bytes"})
    s[key] = native[key];
  doc["summary"] = s;
  doc["variants"] = variants;
  doc["assumptions"] = Json::array({
      "Decode step i (0-based) reads the K/V of prompt + i earlier tokens and appends one token; visible "
      "records add the token itself.",
      "Uncached recompute re-runs full causal attention over the whole sequence at every step: sum of "
      "n(n+1)/2 for n = prompt+1 .. prompt+steps.",
      "A prefix hit of C tokens leaves prompt - C suffix tokens to prefill against the cached prefix.",
      "Variants change only the number of KV heads (native GQA, MHA with kv = heads, MQA with kv = 1); query "
      "heads and attention FLOPs per pair stay the same.",
  });
  return doc;
}

Json memory_concurrency_document(const Data& data, const MemoryConcurrencyInput& in) {
  ModelDims d = model_dims(data.model(in.model));
  require_positive(in.length, "length");
  require_positive(in.batch, "batch");
  require_positive(in.transactions, "transactions");
  require_positive(in.transaction_bytes, "transaction-bytes");
  if (!(in.latency_ns > 0) || !std::isfinite(in.latency_ns))
    throw Error("latency-ns must be a positive number");
  if (!(in.bandwidth_bytes_per_second > 0) || !std::isfinite(in.bandwidth_bytes_per_second))
    throw Error("bandwidth-bytes-per-second must be a positive number");
  Int active = in.active_transactions ? *in.active_transactions : in.transactions;
  require_positive(active, "active-transactions");
  if (in.service_interval_ns && (!(*in.service_interval_ns > 0) || !std::isfinite(*in.service_interval_ns)))
    throw Error("service-interval-ns must be a positive number");
  const Int payload = in.batch * in.length * kv_per_token(d, 2);
  const Rational giga = Rational::of(1000000000);
  const Rational latency = Rational::of_double(in.latency_ns);
  const Rational iface = Rational::of_double(in.bandwidth_bytes_per_second);
  const Rational window = Rational::of(active * in.transaction_bytes) * giga / latency;
  Rational bound = iface;
  std::string limit = "interface_bandwidth";
  if (window < bound) {
    bound = window;
    limit = "concurrency_window";
  }
  Json service_rate;
  if (in.service_interval_ns) {
    Rational rate = Rational::of(in.transaction_bytes) * giga / Rational::of_double(*in.service_interval_ns);
    service_rate = rate.to_double();
    if (rate < bound) {
      bound = rate;
      limit = "service_interval";
    }
  }
  const Int required = ceil(iface * latency / (Rational::of(in.transaction_bytes) * giga));
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "memory-concurrency";
  doc["model"] = in.model;
  doc["scenario"] =
      Json{{"length", in.length.value()},
           {"batch", in.batch.value()},
           {"transactions", in.transactions.value()},
           {"transaction_bytes", in.transaction_bytes.value()},
           {"latency_ns", in.latency_ns},
           {"bandwidth_bytes_per_second", in.bandwidth_bytes_per_second},
           {"active_transactions", active.value()},
           {"service_interval_ns", in.service_interval_ns ? Json(*in.service_interval_ns) : Json()}};
  doc["sources"] = data.model_sources(in.model);
  Json s = Json::object();
  s["payload_bytes"] = payload.value();
  s["concurrency_window_bytes_per_second"] = window.to_double();
  s["interface_bytes_per_second"] = iface.to_double();
  s["service_interval_bytes_per_second"] = service_rate;
  s["achievable_bytes_per_second"] = bound.to_double();
  s["limiting_factor"] = limit;
  s["transactions_to_saturate_interface"] = required.value();
  s["service_seconds"] = (Rational::of(payload) / bound).to_double();
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Payload is the selected KV history of the model (batch x length tokens at 2 bytes per element).",
      "Little's law: with N transactions of b bytes in flight and latency L, at most N*b/L bytes per second "
      "arrive; the interface bandwidth and an optional per-transaction service interval cap it further.",
      "Exact rational arithmetic; queueing, bank conflicts and refresh are not modelled.",
  });
  return doc;
}

}  // namespace bb::calc
