// `qwen-matrix-vector-handoff`: one Qwen attention head's QK -> materialised causal softmax -> PV in row
// groups, with the scores and probabilities handed between a matrix server and a vector server over a
// staged (write + read) or direct path, scheduled on declared per-tick rates with finite slots.
#pragma once

#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct MatrixVectorScenario {
  std::string model = "qwen3-8b";
  Int length = 128, group_rows = 32, slots = 2;
  std::string path = "staged";  // or "direct"
  Int matrix_flops_per_tick = 8192, scalar_ops_per_tick = 128, exp_ops_per_tick = 16, div_ops_per_tick = 16,
      comparison_ops_per_tick = 128, link_bytes_per_tick = 128, capacity_bytes = 98304;
  Json sources;  // the provenance rows to cite; null: the model's rows from the source lock
};

// At most this many row groups (5 scheduled tasks each): the list scheduler is quadratic in the tasks.
inline constexpr std::int64_t kMaxHandoffGroups = 1024;

Json matrix_vector_document(const Data& data, const MatrixVectorScenario& in);
Json matrix_vector_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
