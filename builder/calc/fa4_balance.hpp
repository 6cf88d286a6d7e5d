// `fa4-single-sm-resource-balance`: the FlashAttention-4 paper's single-SM balance of matrix, shared
// memory and exponential supply for dense BF16 attention tiles of a Qwen3 head width, with exact cycle
// counts for the paper's rates and for hypothetical doublings of each supply.
#pragma once

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// `record` is the calculation's input record (the real book's configs/fa4-resource-inputs.json, which
// the result stores as "sources"): its "rates" per SM cycle and its "sources" rows, one of which is the
// model config (configs/models/<id>/config.json) whose head_dim the tiles use.
Json fa4_balance_document(const Data& data, const Json& record);
Json fa4_balance_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
