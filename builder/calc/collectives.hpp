// Tensor-parallel all-reduce (ring and binomial tree) and MoE all-to-all dispatch payloads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct CollectiveInput {
  std::string model = "qwen3-8b";
  Int batch = 1, tokens = 1, participants = 8, bandwidth_bytes_per_second = 50000000000, startup_ns = 2000;
};
Json ring_collective_document(const Data& data, const CollectiveInput& in);
Json tree_collective_document(const Data& data, const CollectiveInput& in);

struct AllToAllInput {
  std::string model = "qwen3-235b-a22b";
  Int tokens_per_rank = 64, participants = 8;
  std::string routing = "balanced";                     // balanced | hotspot | counts
  std::optional<std::vector<std::vector<Int>>> counts;  // [rank][expert]
  std::string counts_file;
};
Json all_to_all_document(const Data& data, const AllToAllInput& in);

}  // namespace bb::calc
