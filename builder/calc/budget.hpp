// First-order budgets: nominal decode budget on one device, and weights/links across cards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct DecodeBudgetInput {
  Int batch = 1, parameters = 70000000000, weight_bits = 8;
  Int kv_history_bytes_per_request = 0, kv_append_bytes_per_request = 0, workspace_bytes = 0,
      metadata_bytes = 0;
  double compute_multiplier = 1.0, bandwidth_multiplier = 1.0;
  std::string device = "h100-sxm";
};
Json decode_budget_document(const Data& data, const DecodeBudgetInput& in);

struct ResourceBasicsInput {
  Int parameters = 70000000000, weight_bits = 16, cards = 2, card_capacity_bytes = 80000000000;
  Int state_bytes_per_card = 0, workspace_bytes_per_card = 0, metadata_bytes_per_card = 0;
  double link_bits_per_second = 4e11;
  Int messages = 1;
  std::optional<Int> payload_bytes;
  std::optional<std::vector<Int>> shard_parameters;
  std::string shard_file;
  double startup_seconds = 3e-6, link_efficiency = 1.0;
};
Json resource_basics_document(const ResourceBasicsInput& in);

}  // namespace bb::calc
