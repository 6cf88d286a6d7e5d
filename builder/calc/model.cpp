// Adapter selection and config validation (see model.hpp).
#include "calc/model.hpp"

#include "calc/error.hpp"

namespace bb::calc {
namespace {

struct Reader {
  const ModelConfig& m;
  [[noreturn]] void fail(const std::string& what) const { throw Error("model " + m.id + ": " + what); }
  Int positive(const char* key) const {
    const Json& c = m.config;
    if (!c.contains(key) || !c[key].is_number_integer() || c[key].get<std::int64_t>() <= 0)
      fail(std::string("config field '") + key + "' must be a positive integer");
    return c[key].get<std::int64_t>();
  }
  bool flag(const char* key, bool fallback) const {
    const Json& c = m.config;
    if (!c.contains(key) || c[key].is_null()) return fallback;
    if (!c[key].is_boolean()) fail(std::string("config field '") + key + "' must be true or false");
    return c[key].get<bool>();
  }
  bool present(const char* key) const { return m.config.contains(key) && !m.config[key].is_null(); }
};

}  // namespace

std::string adapter_name(Adapter a) {
  switch (a) {
    case Adapter::Qwen3Dense: return "qwen3";
    case Adapter::Qwen3Moe: return "qwen3_moe";
    case Adapter::Llama: return "llama";
  }
  return "";
}

ModelDims model_dims(const ModelConfig& model) {
  Reader r{model};
  const Json& c = model.config;
  ModelDims d;
  d.id = model.id;
  d.model_type = c.value("model_type", "");
  if (d.model_type == "qwen3") {
    d.adapter = Adapter::Qwen3Dense;
  } else if (d.model_type == "qwen3_moe") {
    d.adapter = Adapter::Qwen3Moe;
  } else if (d.model_type == "llama") {
    d.adapter = Adapter::Llama;
  } else {
    r.fail("unsupported model_type '" + d.model_type + "' (supported: qwen3, qwen3_moe, llama)");
  }
  d.hidden = r.positive("hidden_size");
  d.intermediate = r.positive("intermediate_size");
  d.layers = r.positive("num_hidden_layers");
  d.heads = r.positive("num_attention_heads");
  d.kv_heads = r.positive("num_key_value_heads");
  d.head_dim = r.positive("head_dim");
  d.vocab = r.positive("vocab_size");
  d.max_positions = r.positive("max_position_embeddings");
  d.tied = r.flag("tie_word_embeddings", false);
  if ((d.heads % d.kv_heads).value() != 0)
    r.fail("num_attention_heads must be a multiple of num_key_value_heads");
  if ((d.head_dim % 2).value() != 0) r.fail("head_dim must be even (RoPE rotates pairs)");
  if (r.flag("attention_bias", false)) r.fail("attention_bias is not supported by this adapter");
  if (c.value("hidden_act", "silu") != "silu") r.fail("hidden_act must be silu");

  if (d.adapter == Adapter::Llama) {
    if (d.hidden != d.heads * d.head_dim) r.fail("Llama adapter requires hidden_size = heads * head_dim");
    if (r.flag("mlp_bias", false)) r.fail("mlp_bias is not supported");
    if (c.contains("pretraining_tp") && c["pretraining_tp"] != 1) r.fail("pretraining_tp must be 1");
    if (d.tied) r.fail("Llama adapter requires an untied output head");
    if (!c.contains("rope_scaling") || !c["rope_scaling"].is_object() ||
        c["rope_scaling"].value("rope_type", "") != "llama3")
      r.fail("Llama adapter requires rope_scaling.rope_type = llama3");
    for (const char* key : {"attention_dropout"})
      if (c.contains(key) && c[key].is_number() && c[key].get<double>() != 0.0) r.fail("dropout must be 0");
    return d;
  }
  if (r.flag("use_sliding_window", false)) r.fail("sliding-window attention is not supported");
  if (r.present("rope_scaling")) r.fail("rope_scaling is not supported by the Qwen3 adapters");
  if (d.adapter == Adapter::Qwen3Moe) {
    d.experts = r.positive("num_experts");
    d.top_k = r.positive("num_experts_per_tok");
    d.expert_intermediate = r.positive("moe_intermediate_size");
    d.norm_topk_prob = r.flag("norm_topk_prob", false);
    if (d.top_k > d.experts) r.fail("num_experts_per_tok exceeds num_experts");
    if (c.contains("mlp_only_layers") && !c["mlp_only_layers"].empty())
      r.fail("mlp_only_layers must be empty");
    if (c.contains("decoder_sparse_step") && c["decoder_sparse_step"] != 1)
      r.fail("decoder_sparse_step must be 1");
  }
  return d;
}

}  // namespace bb::calc

namespace bb::calc {

Json models_document(const Data& data) {
  Json list = Json::array();
  for (const auto& id : data.model_ids()) {
    const ModelConfig& m = data.model(id);
    Json row = Json::object();
    row["id"] = id;
    row["config_file"] = m.file.string();
    row["model_type"] = m.config.value("model_type", "");
    Json lock;
    for (const auto& s : data.sources_lock()["sources"])
      if (s.value("model", "") == id && s.value("upstream_file", "") == "config.json") lock = s;
    row["repository"] = lock.is_null() ? Json() : lock.value("repository", Json());
    row["revision"] = lock.is_null() ? Json() : lock.value("revision", Json());
    row["config_status"] = lock.is_null() ? "unlocked" : lock.value("status", "unknown");
    try {
      ModelDims d = model_dims(m);
      row["adapter"] = adapter_name(d.adapter);
      row["forward"] = true;
      row["generate"] = is_dense(d.adapter);
      row["state"] = true;
      row["experts"] = !is_dense(d.adapter);
      row["error"] = nullptr;
    } catch (const Error& e) {
      row["adapter"] = nullptr;
      row["forward"] = false;
      row["generate"] = false;
      row["state"] = false;
      row["experts"] = false;
      row["error"] = e.what();
    }
    list.push_back(row);
  }
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "model-catalog";
  doc["models"] = list;
  return doc;
}

}  // namespace bb::calc
