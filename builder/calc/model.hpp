// Model adapters: which formula family a config selects, and the validated dimensions it uses.
#pragma once

#include <string>
#include <string_view>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"

namespace bb::calc {

enum class Adapter { Qwen3Dense, Qwen3Moe, Llama };

// The dimensions the formulas read, validated as the reference adapters validate them.
struct ModelDims {
  std::string id;
  std::string model_type;
  Adapter adapter = Adapter::Qwen3Dense;
  Int hidden, intermediate, layers, heads, kv_heads, head_dim, vocab, max_positions;
  bool tied = false;
  // Qwen3 MoE only.
  Int experts = 0, top_k = 0, expert_intermediate = 0;
  bool norm_topk_prob = false;
};

// Selects the adapter from config["model_type"] (qwen3, qwen3_moe, llama); anything else is an error,
// never a fallback to another formula.
ModelDims model_dims(const ModelConfig& model);

std::string adapter_name(Adapter a);
inline bool is_dense(Adapter a) {
  return a != Adapter::Qwen3Moe;
}

}  // namespace bb::calc

namespace bb::calc {
// `models`: every config under configs/models with its adapter and what the library computes for it.
Json models_document(const Data& data);
}  // namespace bb::calc
