// `qwen-pointwise-fusion-lifetimes` (see fusion_lifetime.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/fusion_lifetime.py (bojieli/ai-infra-book): a boundary is a full
// materialised tensor; each group allocates its output before it frees the inputs no later group reads.
#include "calc/fusion_lifetime.hpp"

#include <map>
#include <set>
#include <vector>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

struct Operation {
  std::string name;
  std::vector<std::string> inputs;
  std::string output;
};
using Sizes = std::map<std::string, Int>;
using Names = std::set<std::string>;  // sorted, as the reference sorts every list of names

Json names_json(const Names& names) {
  Json out = Json::array();
  for (const auto& n : names) out.push_back(n);
  return out;
}

Int total(const Sizes& sizes, const Names& names) {
  Int sum = 0;
  for (const auto& n : names) sum += sizes.at(n);
  return sum;
}

struct Group {
  Json operators = Json::array();
  Names inputs;
  std::string output;
};

// The chain cut after each operator index in `cuts` (ascending): the stages and their live tensors.
Json ledger(const Sizes& sizes, const std::vector<Operation>& ops, const std::vector<size_t>& cuts) {
  Names produced, live;
  for (const auto& op : ops) produced.insert(op.output);
  for (const auto& op : ops)
    for (const auto& in : op.inputs)
      if (!produced.count(in)) live.insert(in);
  std::vector<size_t> ends = cuts;
  ends.push_back(ops.size() - 1);
  std::vector<Group> groups;
  size_t start = 0;
  for (size_t end : ends) {
    Group g;
    Names internal;
    for (size_t i = start; i <= end; ++i) internal.insert(ops[i].output);
    for (size_t i = start; i <= end; ++i) {
      g.operators.push_back(ops[i].name);
      for (const auto& in : ops[i].inputs)
        if (!internal.count(in)) g.inputs.insert(in);
    }
    g.output = ops[end].output;
    groups.push_back(std::move(g));
    start = end + 1;
  }
  Int peak = total(sizes, live), interface = 0;
  Json stages = Json::array();
  const std::string& final_output = ops.back().output;
  for (size_t index = 0; index < groups.size(); ++index) {
    const Group& g = groups[index];
    for (const auto& in : g.inputs)
      if (!live.count(in)) throw Error("consumer input " + in + " is not materialised");
    live.insert(g.output);
    const Int during = total(sizes, live);
    peak = max(peak, during);
    const Int read = total(sizes, g.inputs), write = sizes.at(g.output);
    Names future, released;
    for (size_t later = index + 1; later < groups.size(); ++later)
      future.insert(groups[later].inputs.begin(), groups[later].inputs.end());
    for (const auto& t : live)
      if (!future.count(t) && t != final_output) released.insert(t);
    stages.push_back(Json{{"stage", index},
                          {"operators", g.operators},
                          {"inputs", names_json(g.inputs)},
                          {"output", g.output},
                          {"read_bytes", read.value()},
                          {"write_bytes", write.value()},
                          {"live_during", names_json(live)},
                          {"live_bytes", during.value()},
                          {"released_after", names_json(released)}});
    interface += read + write;
    for (const auto& t : released) live.erase(t);
  }
  Json cut_list = Json::array();
  for (size_t c : cuts) cut_list.push_back(c);
  return Json{{"boundaries", cut_list},
              {"stages", stages},
              {"interface_bytes", interface.value()},
              {"declared_tensor_peak_bytes", peak.value()},
              {"final_live", names_json(live)}};
}

}  // namespace

Json fusion_lifetime_document(const Data& data, const FusionLifetimeScenario& in) {
  const ModelDims dims = model_dims(data.model(in.model));
  if (dims.adapter != Adapter::Qwen3Dense) throw Error("model " + in.model + " is not a Qwen3 dense model");
  if (in.tokens < 1) throw Error("tokens must be positive");
  if (in.tokens > dims.max_positions)
    throw Error("tokens must not exceed the model's max_position_embeddings (" +
                std::to_string(dims.max_positions.value()) + ")");
  const Int elements = in.tokens * dims.intermediate, x = Int(2) * elements;
  // BF16 gate/up and intermediates; the cast's output is one byte per element.
  Json tensor_sizes = Json{{"gate", x.value()},
                           {"up", x.value()},
                           {"silu", x.value()},
                           {"product", x.value()},
                           {"quantized", elements.value()}};
  std::vector<Operation> ops = {{"silu", {"gate"}, "silu"}, {"multiply", {"silu", "up"}, "product"}};
  std::string quant_input = "product";
  if (in.layout_copy) {
    tensor_sizes["reordered"] = x.value();
    ops.push_back({"layout_permute", {"product"}, "reordered"});
    quant_input = "reordered";
  }
  ops.push_back({"fixed_scale_cast", {quant_input}, "quantized"});
  Sizes sizes;
  for (const auto& [name, bytes] : tensor_sizes.items()) sizes[name] = bytes.get<std::int64_t>();

  Json variants = Json::array();
  const size_t cut_points = ops.size() - 1;
  for (size_t mask = 0; mask < (size_t{1} << cut_points); ++mask) {
    std::vector<size_t> cuts;
    for (size_t i = 0; i < cut_points; ++i)
      if (mask & (size_t{1} << i)) cuts.push_back(i);
    variants.push_back(ledger(sizes, ops, cuts));
  }
  const Json fused = variants.front(), unfused = variants.back();
  const Int separate = unfused["interface_bytes"].get<std::int64_t>();
  for (auto& row : variants)
    row["saved_interface_bytes"] = (separate - Int(row["interface_bytes"].get<std::int64_t>())).value();
  const Int fused_bytes = fused["interface_bytes"].get<std::int64_t>();

  Json ops_json = Json::array();
  for (const auto& op : ops)
    ops_json.push_back(Json{{"name", op.name}, {"inputs", op.inputs}, {"output", op.output}});
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "qwen-pointwise-fusion-lifetimes";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"tokens", in.tokens.value()}, {"layout_copy", in.layout_copy}};
  doc["sources"] = in.sources.is_null() ? model_provenance(data, in.model) : in.sources;
  doc["tensor_sizes"] = tensor_sizes;
  doc["chain_operations"] = ops_json;
  doc["fusion_variants"] = variants;
  Json s = Json::object();
  s["elements"] = elements.value();
  s["bf16_intermediate_bytes"] = x.value();
  s["standalone_layout_read_write_bytes"] = in.layout_copy ? (Int(2) * x).value() : 0;
  s["contiguous_partitions"] = variants.size();
  s["separate_interface_bytes"] = separate.value();
  s["fused_interface_bytes"] = fused_bytes.value();
  s["saved_interface_bytes"] = (separate - fused_bytes).value();
  s["separate_tensor_peak_bytes"] = unfused["declared_tensor_peak_bytes"];
  s["fused_tensor_peak_bytes"] = fused["declared_tensor_peak_bytes"];
  s["actual_device_peak_bytes"] = nullptr;
  s["predicted_seconds"] = nullptr;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Starts from one layer's gate and up outputs (tokens x intermediate_size, BF16); the projections "
      "and the down GEMM are outside. The cast writes one byte per element with a given fixed scale.",
      "Every contiguous grouping of the chain is listed; a boundary materialises the full tensor, and a "
      "group computes its operators element by element without writing its internal tensors.",
      "The optional layout permute reads and writes one BF16 tensor when it runs alone; fused, the "
      "producer is assumed to write in the target order.",
      "Each group allocates its output before freeing inputs no later group reads (no in-place "
      "aliasing); the peak is the largest sum of tensors alive at once, not a device peak.",
  });
  return doc;
}

Json fusion_lifetime_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  FusionLifetimeScenario in;
  in.model = stored_string(stored, "model", "");
  in.tokens = stored_int(s, "tokens", "scenario");
  in.layout_copy = stored_bool(s, "layout_copy", "scenario");
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  return with_stored_prose(fusion_lifetime_document(data, in), stored);
}

}  // namespace bb::calc
