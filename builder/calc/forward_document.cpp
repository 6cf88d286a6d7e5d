// The forward result as the reference tool writes it (forward.hpp): scenario, assumptions, weights,
// operators and summary, in its key order.
#include "calc/forward.hpp"

namespace bb::calc {

Json forward_document(const Data& data, const ForwardResult& r) {
  const ModelDims& d = r.dims;
  const ForwardScenario& s = r.scenario;
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = d.adapter == Adapter::Qwen3Dense ? "qwen3-dense-forward"
                       : d.adapter == Adapter::Qwen3Moe ? "qwen3-moe-forward"
                                                        : "llama-dense-forward";
  doc["model"] = d.id;
  Json sc = Json::object();
  sc["batch"] = s.batch.value();
  sc["history"] = s.history.value();
  sc["tokens"] = s.tokens.value();
  sc["output_head"] = s.output_head;
  sc["weight_bytes"] = s.weight_bytes.value();
  sc["activation_bytes"] = s.activation_bytes.value();
  sc["kv_bytes"] = s.kv_bytes.value();
  sc["score_bytes"] = s.score_bytes.value();
  if (d.adapter == Adapter::Qwen3Moe) {
    sc["routing"] = r.routing.mode;
    if (!r.routing.counts_file.empty()) sc["routing_counts_file"] = r.routing.counts_file;
  }
  doc["scenario"] = sc;
  doc["sources"] = data.model_sources(d.id);
  Json dims = Json::object();
  dims["num_hidden_layers"] = d.layers.value();
  dims["hidden_size"] = d.hidden.value();
  dims["intermediate_size"] = d.intermediate.value();
  dims["num_attention_heads"] = d.heads.value();
  dims["num_key_value_heads"] = d.kv_heads.value();
  dims["head_dim"] = d.head_dim.value();
  dims["vocab_size"] = d.vocab.value();
  dims["tie_word_embeddings"] = d.tied;
  if (d.adapter == Adapter::Qwen3Moe) {
    dims["num_experts"] = d.experts.value();
    dims["num_experts_per_tok"] = d.top_k.value();
    dims["moe_intermediate_size"] = d.expert_intermediate.value();
    dims["norm_topk_prob"] = d.norm_topk_prob;
  }
  doc["dimensions"] = dims;
  Json as = Json::array({
      "All requests have equal length and identical position ids; no prefix sharing across requests, no "
      "tensor or pipeline parallelism; inference with dropout 0.",
      "Every weight uses weight_bytes (a teaching format); the real quantization is not inferred from "
      "torch_dtype.",
      "Operator costs are per occurrence and repeats is the layer count; layout views and GQA repetition are "
      "not materialized.",
      "An FMA counts 2 FLOPs; matrix_flops is the valid causal matrix work, scalar_flops the ordinary "
      "arithmetic "
      "of the stated algorithm; special functions are listed apart.",
      "Operator reads and writes are independent operand payloads with scores and probabilities materialized "
      "as a rectangle: not measured HBM traffic and not a lower bound on whole-graph traffic.",
      "Row-wise intermediates of scalar operators stay on chip; FlashAttention tiling and cache traffic are "
      "a "
      "separate execution topic.",
      "Sampling, tokenizer, kernel launch, allocator, KV index management and backend workspaces are not "
      "counted; this is not a complete token time.",
  });
  if (d.adapter == Adapter::Qwen3Moe)
    as.push_back("Expert histogram per layer is " + r.routing.mode +
                 "; routed expert weights are read once per used expert (union), so balanced and "
                 "concentrated routing do the same FLOPs but move different weight payloads.");
  doc["assumptions"] = as;
  Json ws = Json::array();
  for (const auto& t : r.weights) {
    Json j = Json::object();
    j["name"] = t.name;
    Json sh = Json::array();
    Int n = t.copies;
    for (Int x : t.shape) {
      sh.push_back(x.value());
      n *= x;
    }
    j["shape"] = sh;
    j["copies"] = t.copies.value();
    j["note"] = t.note;
    j["parameters"] = n.value();
    j["resident_bytes"] = (n * s.weight_bytes).value();
    ws.push_back(j);
  }
  doc["weights"] = ws;
  Json ops = Json::array();
  for (const auto& op : r.operators) {
    Json j = Json::object();
    j["name"] = op.name;
    j["category"] = op.category;
    j["shapes"] = op.shapes;
    j["repeats"] = op.repeats.value();
    j["matrix_flops"] = op.matrix_flops.value();
    j["scalar_flops"] = op.scalar_flops.value();
    Json sp = Json::object();
    for (const auto& [name, v] : op.special_ops) sp[name] = v.value();
    j["special_ops"] = sp;
    j["weight_read_bytes"] = op.weight_read_bytes.value();
    j["activation_read_bytes"] = op.activation_read_bytes.value();
    j["activation_write_bytes"] = op.activation_write_bytes.value();
    j["notes"] = op.notes;
    ops.push_back(j);
  }
  doc["operators"] = ops;
  if (d.adapter == Adapter::Qwen3Moe) {
    Json counts = Json::array();
    for (Int c : r.routing.counts) counts.push_back(c.value());
    doc["expert_counts_per_layer"] = counts;
  }
  doc["summary"] = r.summary;
  return doc;
}

}  // namespace bb::calc
