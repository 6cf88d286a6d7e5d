// `qwen-pointwise-fusion-lifetimes`: the pointwise chain after a Qwen FFN's gate/up projections (SiLU,
// multiply, optional layout permute, fixed-scale cast) cut into every contiguous grouping, with the
// tensors each grouping materialises, the bytes it moves and the tensors alive at once.
#pragma once

#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct FusionLifetimeScenario {
  std::string model = "qwen3-8b";
  Int tokens = 1024;
  bool layout_copy = false;
  Json sources;  // the provenance rows to cite; null: the model's rows from the source lock
};

Json fusion_lifetime_document(const Data& data, const FusionLifetimeScenario& in);
Json fusion_lifetime_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
