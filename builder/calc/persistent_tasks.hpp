// `qwen-persistent-tasks`: a Qwen dense up-projection feeding SiLU, cut into row tiles, run either as two
// kernels with a barrier between them or as persistent producer/consumer tasks that start on each
// tile's readiness, with exact nanosecond timelines on declared service rates.
#pragma once

#include <string>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct PersistentTasksScenario {
  std::string model = "qwen3-8b";
  Int tokens = 512, tile_rows = 64;
  Int matrix_flops_per_second = 200'000'000'000'000, activation_elements_per_second = 20'000'000'000;
  Int host_launch_ns = 5000, task_dispatch_ns = 500, event_publish_ns = 200;
  Json sources;  // the provenance rows to cite; null: the model's rows from the source lock
};

Json persistent_tasks_document(const Data& data, const PersistentTasksScenario& in);
Json persistent_tasks_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
