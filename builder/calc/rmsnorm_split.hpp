// `qwen-rmsnorm-split-reduction`: one RMSNorm over the model's hidden width, computed by one group per
// row or by a three-pass split reduction (partials, merge, apply), with the bytes crossing each interface.
#pragma once

#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct RmsnormSplitScenario {
  std::string model = "qwen3-8b";
  Int rows = 1, splits = 8, width_multiplier = 1;
  Json sources;  // the provenance rows to cite; null: the model's rows from the source lock
};

Json rmsnorm_split_document(const Data& data, const RmsnormSplitScenario& in);
Json rmsnorm_split_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
