// `qwen-attention-input-pipeline`: one rectangular Qwen QK tile whose head_dim contraction is fed in
// chunks through a finite number of input slots, synchronously (through registers) or asynchronously
// (straight into the buffer), on a declared tick model.
#pragma once

#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct AttentionInputScenario {
  std::string model = "qwen3-8b";
  Int tile_m = 128, tile_n = 128, tile_k = 32, latency_ticks = 128, input_bytes_per_tick = 256,
      matrix_flops_per_tick = 8192, register_bytes_per_tick = 256, capacity_bytes = 65536;
  Json sources;  // the provenance rows to cite; null: the model's rows from the source lock
};

Json attention_input_document(const Data& data, const AttentionInputScenario& in);
// The stored result's "model" and "scenario" recomputed (see calculations.hpp).
Json attention_input_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
