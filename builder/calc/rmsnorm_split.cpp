// `qwen-rmsnorm-split-reduction` (see rmsnorm_split.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/row_reduction.py (bojieli/ai-infra-book): BF16 input, gamma and
// output, FP32 partials and inverse, the remainder of an uneven split on the first partitions.
#include "calc/rmsnorm_split.hpp"

#include <vector>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

// The partitions are listed one by one: a bound keeps a hostile scenario from exhausting memory.
constexpr std::int64_t kMaxSplits = 1 << 16;

// Widths of `splits` contiguous partitions of `width`, the first `width % splits` one element wider.
std::vector<Int> partitions(Int width, Int splits) {
  if (splits > width) throw Error("splits must not exceed the width: no empty reduction partitions");
  if (splits > kMaxSplits) throw Error("at most " + std::to_string(kMaxSplits) + " splits");
  std::vector<Int> out;
  const Int q = width / splits, r = width % splits;
  for (Int i = 0; i < splits; i += 1) out.push_back(q + (i < r ? 1 : 0));
  return out;
}

const char* const kInterfaceFields[] = {"input_read_bytes",    "weight_read_bytes",  "output_write_bytes",
                                        "partial_write_bytes", "partial_read_bytes", "inverse_write_bytes",
                                        "inverse_read_bytes"};

Int interface_bytes(const Json& variant) {
  Int sum = 0;
  for (const char* key : kInterfaceFields) sum += Int(variant[key].get<std::int64_t>());
  return sum;
}

}  // namespace

Json rmsnorm_split_document(const Data& data, const RmsnormSplitScenario& in) {
  const ModelDims dims = model_dims(data.model(in.model));
  if (dims.adapter != Adapter::Qwen3Dense) throw Error("model " + in.model + " is not a Qwen3 dense model");
  if (in.rows < 1) throw Error("rows must be positive");
  if (in.splits < 1) throw Error("splits must be positive");
  if (in.width_multiplier < 1) throw Error("width_multiplier must be positive");
  const Int M = in.rows, S = in.splits, D = dims.hidden * in.width_multiplier;
  const std::vector<Int> sizes = partitions(D, S);

  Json fused = Json{{"name", "one_group_per_row"},
                    {"groups", M.value()},
                    {"launches", 1},
                    {"input_read_bytes", (Int(2) * M * D).value()},
                    {"weight_read_bytes", (Int(2) * M * D).value()},
                    {"output_write_bytes", (Int(2) * M * D).value()},
                    {"partial_write_bytes", 0},
                    {"partial_read_bytes", 0},
                    {"inverse_write_bytes", 0},
                    {"inverse_read_bytes", 0},
                    {"declared_auxiliary_bytes", 0}};
  // Pass 1: M*S groups write FP32 partials; pass 2: M groups merge them into an FP32 inverse; pass 3:
  // M*S groups re-read the input and apply inverse and gamma (each reads the inverse once).
  Json split = Json{{"name", "three_pass_split"},
                    {"groups", (M * (Int(2) * S + 1)).value()},
                    {"launches", 3},
                    {"input_read_bytes", (Int(4) * M * D).value()},
                    {"weight_read_bytes", (Int(2) * M * D).value()},
                    {"output_write_bytes", (Int(2) * M * D).value()},
                    {"partial_write_bytes", (Int(4) * M * S).value()},
                    {"partial_read_bytes", (Int(4) * M * S).value()},
                    {"inverse_write_bytes", (Int(4) * M).value()},
                    {"inverse_read_bytes", (Int(4) * M * S).value()},
                    {"declared_auxiliary_bytes", (Int(4) * M * (S + 1)).value()}};
  const Int fused_bytes = interface_bytes(fused), split_bytes = interface_bytes(split);
  fused["interface_bytes"] = fused_bytes.value();
  split["interface_bytes"] = split_bytes.value();

  Json widths = Json::array();
  Int widest = 0;
  for (Int w : sizes) {
    widths.push_back(w.value());
    widest = max(widest, w);
  }
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "qwen-rmsnorm-split-reduction";
  doc["model"] = in.model;
  doc["scenario"] =
      Json{{"rows", M.value()}, {"splits", S.value()}, {"width_multiplier", in.width_multiplier.value()}};
  doc["sources"] = in.sources.is_null() ? model_provenance(data, in.model) : in.sources;
  doc["reduction_variants"] = Json::array({fused, split});
  doc["partition_widths"] = widths;
  doc["arithmetic"] = Json{{"squares", (M * D).value()},
                           {"reduction_adds", (M * (D - 1)).value()},
                           {"mean_and_epsilon", (Int(2) * M).value()},
                           {"normalize_and_affine", (Int(2) * M * D).value()},
                           {"rsqrt", M.value()}};
  Json s = Json::object();
  s["width"] = D.value();
  s["official_hidden_size"] = dims.hidden.value();
  s["scalar_flops"] = (M * (Int(4) * D + 1)).value();
  s["rsqrt_calls"] = M.value();
  s["first_pass_groups"] = (M * S).value();
  s["second_pass_groups"] = M.value();
  s["apply_groups"] = (M * S).value();
  s["local_reduction_adds"] = (M * (D - S)).value();
  s["merge_reduction_adds"] = (M * (S - 1)).value();
  s["partial_buffer_bytes"] = (Int(4) * M * S).value();
  s["inverse_buffer_bytes"] = (Int(4) * M).value();
  s["fused_interface_bytes"] = fused_bytes.value();
  s["split_interface_bytes"] = split_bytes.value();
  s["additional_interface_bytes"] = (split_bytes - fused_bytes).value();
  s["fused_retained_fp32_row_bytes"] = (Int(4) * D).value();
  s["split_max_partition_fp32_bytes"] = (Int(4) * widest).value();
  s["predicted_seconds"] = nullptr;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "One RMSNorm of the model's hidden_size (times width_multiplier, a teaching variant) over `rows` "
      "rows; not multiplied by the layer count.",
      "Input, gamma and output cross the interface as BF16; partials and the inverse as FP32. Gamma is "
      "read per row, with no cross-row caching assumed.",
      "The split path runs three kernels: M*S partial groups, M merge groups, M*S apply groups that each "
      "read the inverse once. Reduction adds split into M*(D-S) local and M*(S-1) merge adds.",
      "Logical re-reads are interface bytes, not HBM traffic; launch, synchronisation and kernel time are "
      "not modelled.",
  });
  return doc;
}

Json rmsnorm_split_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  RmsnormSplitScenario in;
  in.model = stored_string(stored, "model", "");
  in.rows = stored_int(s, "rows", "scenario");
  in.splits = stored_int(s, "splits", "scenario");
  in.width_multiplier = stored_int(s, "width_multiplier", "scenario");
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  return with_stored_prose(rmsnorm_split_document(data, in), stored);
}

}  // namespace bb::calc
