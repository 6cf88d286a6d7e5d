// One forward call of a decoder: the operator graph with exact FLOP and operand-byte counts.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"
#include "calc/model.hpp"

namespace bb::calc {

// B requests of T new tokens each after S tokens of history, byte widths per element.
struct ForwardScenario {
  Int batch = 1, history = 0, tokens = 8192;
  std::string output_head = "last";  // last | all | none
  Int weight_bytes = 2, activation_bytes = 2, kv_bytes = 2, score_bytes = 4;
};

// MoE expert histogram per layer: balanced, concentrated, or explicit counts (one per expert).
struct Routing {
  std::string mode = "balanced";  // balanced | concentrated | counts
  std::vector<Int> counts;        // only for mode "counts"
  std::string counts_file;        // where explicit counts came from (reported in the scenario)
};

using Counter = std::vector<std::pair<std::string, Int>>;  // ordered like Python's Counter

struct Operator {
  std::string name, category;
  Json shapes;
  Int repeats = 1;
  Int matrix_flops = 0, scalar_flops = 0;
  Counter special_ops;
  Int weight_read_bytes = 0, activation_read_bytes = 0, activation_write_bytes = 0;
  std::string notes;
};

struct WeightTensor {
  std::string name;
  std::vector<Int> shape;
  Int copies = 1;
  std::string note;
};

struct ForwardResult {
  ModelDims dims;
  ForwardScenario scenario;
  Routing routing;
  std::vector<Operator> operators;
  std::vector<WeightTensor> weights;
  Json summary;  // ordered, exact integers
};

// Computes the graph. `routing` must be null for dense models (routing options there are an error).
ForwardResult compute_forward(const ModelDims& dims, const ForwardScenario& scenario, const Routing* routing);
// The full result document (schema_version, calculation, model, scenario, sources, dimensions,
// assumptions, weights, operators, summary).
Json forward_document(const Data& data, const ForwardResult& result);

}  // namespace bb::calc
