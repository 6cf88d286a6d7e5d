// The registry of the real book's calculations (see calculations.hpp). One row per calculation; the
// functions live in the file of their topic.
#include "calc/calculations.hpp"

#include "calc/attention_input.hpp"
#include "calc/fa4_balance.hpp"
#include "calc/fusion_lifetime.hpp"
#include "calc/matrix_vector_handoff.hpp"
#include "calc/paired_projection.hpp"
#include "calc/persistent_tasks.hpp"
#include "calc/rmsnorm_split.hpp"

namespace bb::calc {

const std::vector<Calculation>& calculations() {
  static const std::vector<Calculation> all = {
      // Rows are added by each topic as it is ported: {"request-dag", "request-dag", request_dag_recompute},
      {"qwen-attention-input-pipeline", "qwen-attention-input-pipeline", attention_input_recompute},
      {"qwen-rmsnorm-split-reduction", "qwen-rmsnorm-split-reduction", rmsnorm_split_recompute},
      {"qwen-pointwise-fusion-lifetimes", "qwen-pointwise-fusion-lifetimes", fusion_lifetime_recompute},
      {"qwen-persistent-tasks", "qwen-persistent-tasks", persistent_tasks_recompute},
      {"qwen-matrix-vector-handoff", "qwen-matrix-vector-handoff", matrix_vector_recompute},
      {"paired-projection-conditional-cost", "paired-projection-conditional-cost",
       paired_projection_recompute},
      {"fa4-single-sm-resource-balance", "fa4-single-sm-resource-balance", fa4_balance_recompute},
  };
  return all;
}

const Calculation* find_calculation(std::string_view name) {
  for (const auto& c : calculations())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace bb::calc
