// The registry of the real book's calculations (see calculations.hpp). One row per calculation; the
// functions live in the file of their topic. A command is the calculation's name unless that name is
// already a command of bookbuild's own with another document shape (resource-basics, cache-sequence)
// or is not a command-line word (q_projection_resource_bound).
#include "calc/calculations.hpp"

#include "calc/attention_input.hpp"
#include "calc/fa4_balance.hpp"
#include "calc/fusion_lifetime.hpp"
#include "calc/matrix_vector_handoff.hpp"
#include "calc/paired_projection.hpp"
#include "calc/persistent_tasks.hpp"
#include "calc/rmsnorm_split.hpp"

namespace bb::calc {

// Each topic's recompute (stored result in, fresh document out), defined in its own file.
Json forward_recompute(const Data&, const Json&);              // library_calculations.cpp
Json decode_budget_recompute(const Data&, const Json&);        // library_calculations.cpp
Json projection_recompute(const Data&, const Json&);           // library_calculations.cpp
Json capacity_cards_recompute(const Data&, const Json&);       // capacity_cards.cpp
Json cache_variants_recompute(const Data&, const Json&);       // cache_variants.cpp
Json request_dag_recompute(const Data&, const Json&);          // request_dag.cpp
Json audio_timing_recompute(const Data&, const Json&);         // audio_timing.cpp
Json dense_communication_recompute(const Data&, const Json&);  // dense_communication.cpp
Json batch_reuse_recompute(const Data&, const Json&);          // batch_reuse.cpp
Json agent_trace_recompute(const Data&, const Json&);          // agent_trace.cpp

const std::vector<Calculation>& calculations() {
  static const std::vector<Calculation> all = {
      {"qwen3-dense-forward", "qwen3-dense-forward", forward_recompute},
      {"llama-dense-forward", "llama-dense-forward", forward_recompute},
      {"nominal-decode-budget", "nominal-decode-budget", decode_budget_recompute},
      {"q_projection_resource_bound", "q-projection-resource-bound", projection_recompute},
      {"resource-basics", "resource-basics-cards", capacity_cards_recompute},
      {"cache-sequence", "cache-sequence-variants", cache_variants_recompute},
      {"request-dag", "request-dag", request_dag_recompute},
      {"audio-chunk-timing", "audio-chunk-timing", audio_timing_recompute},
      {"qwen-dense-communication-path", "qwen-dense-communication-path", dense_communication_recompute},
      {"batch-reuse", "batch-reuse", batch_reuse_recompute},
      {"measured-agent-trace-accounting", "measured-agent-trace-accounting", agent_trace_recompute},
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
