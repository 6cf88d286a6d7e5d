// Multi-step views over a request: decode generation, KV state, cache reuse, memory concurrency.
#pragma once

#include <optional>
#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// G single-token decode calls after a prefill of `history` tokens (dense models only).
Json generate_document(const Data& data, const std::string& model, Int batch, Int history, Int steps);

struct StateInput {
  std::string model;
  Int length = 8192, batch = 1, element_bytes = 2, recurrent_bytes = 4;
  std::optional<std::string> mla_path;  // only for MLA models; none of the supported adapters has MLA
};
Json state_document(const Data& data, const StateInput& in);

struct CacheSequenceInput {
  std::string model = "qwen3-8b";
  Int batch = 1, prompt = 8192, steps = 1024, prefix_hit = 6144, element_bytes = 2, recurrent_bytes = 4;
};
Json cache_sequence_document(const Data& data, const CacheSequenceInput& in);

struct MemoryConcurrencyInput {
  std::string model = "qwen3-8b";
  Int length = 8192, batch = 1, transactions = 128, transaction_bytes = 128;
  double latency_ns = 500, bandwidth_bytes_per_second = 1e12;
  std::optional<Int> active_transactions;
  std::optional<double> service_interval_ns;
};
Json memory_concurrency_document(const Data& data, const MemoryConcurrencyInput& in);

}  // namespace bb::calc
