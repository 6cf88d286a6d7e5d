// `fa4-single-sm-resource-balance` (see fa4_balance.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/fa4_resource_balance.py (bojieli/ai-infra-book), which reproduces
// Table 1 of the FA4 paper (MLSys 2026, section 2.2 and 3.1.1, equations 1-3): per 128x128 MMA output
// tile, QK reads Q and K from shared memory, PV reads V (P comes from tensor memory); cycles are
// work / rate, exact, and the steady-state bound is their maximum.
#include "calc/fa4_balance.hpp"

#include <string>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/error.hpp"
#include "calc/fraction.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

constexpr std::int64_t kMma = 128;  // the MMA tile edge; the paper's comparison uses multiples of it

struct Rates {
  Int matrix, smem, exp;
};

// The head width of the model config the record cites.
Int record_head_dim(const Data& data, const Json& record) {
  const std::string prefix = "configs/models/", suffix = "/config.json";
  for (const auto& row : stored_list(record, "sources")) {
    if (!row.is_object() || !row.contains("file") || !row["file"].is_string()) continue;
    const std::string file = row["file"].get<std::string>();
    if (!file.starts_with(prefix) || !file.ends_with(suffix) || file.size() <= prefix.size() + suffix.size())
      continue;
    const ModelDims dims =
        model_dims(data.model(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size())));
    if (dims.model_type != "qwen3") throw Error("the FA4 comparison uses a Qwen3 dense config");
    return dims.head_dim;
  }
  throw Error("sources: the record cites no model config (configs/models/<id>/config.json)");
}

Json tile(Int m, Int n, Int d, const Rates& r, Int mm, Int em, Int sm) {
  // QK: each 128x128 output tile reads its Q and K rows from shared memory; PV: each output tile reads
  // N x 128 of V (P is in tensor memory). BF16 operands.
  const Int qk_tiles = (m / kMma) * (n / kMma), pv_tiles = (m / kMma) * (d / kMma);
  const Int qk_smem = qk_tiles * (Int(kMma) * d + Int(kMma) * d) * 2;
  const Int pv_smem = pv_tiles * n * kMma * 2;
  const Int flops = Int(4) * m * n * d, smem = qk_smem + pv_smem, exps = m * n;
  const Rational cycles[3] = {Rational::ratio(flops.value(), (r.matrix * mm).value()),
                              Rational::ratio(smem.value(), (r.smem * sm).value()),
                              Rational::ratio(exps.value(), (r.exp * em).value())};
  const char* names[3] = {"matrix", "smem", "exp"};
  Rational bound = cycles[0];
  for (const auto& c : cycles)
    if (bound < c) bound = c;
  Json tied = Json::array();
  for (int i = 0; i < 3; ++i)
    if (cycles[i] == bound) tied.push_back(names[i]);
  auto matrix = [&](const char* name, Json left, Json right, Json out) {
    return Json{{"name", name},
                {"left", left},
                {"right", right},
                {"output", out},
                {"flops", (Int(2) * m * n * d).value()}};
  };
  Json row = Json::object();
  row["shape"] = Json{{"M", m.value()}, {"N", n.value()}, {"d", d.value()}};
  row["multipliers"] = Json{{"matrix", mm.value()}, {"exp", em.value()}, {"smem", sm.value()}};
  row["matrices"] =
      Json::array({matrix("QK", {m.value(), d.value()}, {d.value(), n.value()}, {m.value(), n.value()}),
                   matrix("PV", {m.value(), n.value()}, {n.value(), d.value()}, {m.value(), d.value()})});
  row["mma_output_tiles"] = Json{{"QK", qk_tiles.value()}, {"PV", pv_tiles.value()}};
  row["interface_bytes"] = Json{{"qk_smem_read", qk_smem.value()},
                                {"pv_smem_read", pv_smem.value()},
                                {"unique_qkv_input_payload", (Int(2) * (m * d + Int(2) * n * d)).value()},
                                {"measured_hbm", nullptr}};
  row["work"] =
      Json{{"matrix_flops", flops.value()}, {"smem_read_bytes", smem.value()}, {"exp_results", exps.value()}};
  row["cycles"] = Json{
      {"matrix", exact_json(cycles[0])}, {"smem", exact_json(cycles[1])}, {"exp", exact_json(cycles[2])}};
  row["accounted_steady_state_bound_cycles"] = exact_json(bound);
  row["tied_limiting_resources"] = tied;
  row["complete_softmax_cycles"] = nullptr;
  row["measured_kernel_cycles"] = nullptr;
  return row;
}

Rational bound_of(const Json& row) {
  const Json& b = row["accounted_steady_state_bound_cycles"];
  return Rational::ratio(b["numerator"].get<std::int64_t>(), b["denominator"].get<std::int64_t>());
}

}  // namespace

Json fa4_balance_document(const Data& data, const Json& record) {
  const Json& rates = stored_object(record, "rates");
  const Rates r{stored_int(rates, "bf16_matrix_flops_per_sm_cycle", "sources.rates"),
                stored_int(rates, "smem_read_bytes_per_sm_cycle", "sources.rates"),
                stored_int(rates, "exponential_results_per_sm_cycle", "sources.rates")};
  const Int d = record_head_dim(data, record);
  if (d % kMma != 0) throw Error("head_dim " + std::to_string(d.value()) + " is not a multiple of 128");
  struct Supply {
    const char* name;
    Int matrix, exp, smem;
  };
  const Supply supplies[] = {{"paper-baseline", 1, 1, 1},
                             {"matrix-double", 2, 1, 1},
                             {"matrix-exp-double", 2, 2, 1},
                             {"all-three-double", 2, 2, 2}};
  Json scenarios = Json::array();
  for (auto [m, n] : {std::pair<Int, Int>{128, 128}, {256, 128}, {128, 256}, {256, 256}}) {
    const Rational base = bound_of(tile(m, n, d, r, 1, 1, 1));
    for (const auto& s : supplies) {
      Json row = tile(m, n, d, r, s.matrix, s.exp, s.smem);
      row["id"] = "m" + std::to_string(m.value()) + "-n" + std::to_string(n.value()) + "-" + s.name;
      row["accounted_bound_ratio_to_baseline"] = exact_json(bound_of(row) / base);
      scenarios.push_back(std::move(row));
    }
  }
  Json doc = Json::object();
  doc["calculation"] = "fa4-single-sm-resource-balance";
  doc["sources"] = record;
  doc["scenarios"] = scenarios;
  doc["assumptions"] = Json::array({
      "Dense rectangular BF16 QK and PV tiles of the model's head width; no projections, no causal mask.",
      "The rates are the paper's per-SM analytical inputs, not a whole-device peak.",
      "Shared-memory reads count every MMA operand read; P comes from tensor memory.",
      "The bound is max(work / rate) over the three resources: ideal overlap in steady state, not the "
      "serial QK-softmax-PV latency; exp is only part of the softmax.",
      "Multipliers are hypothetical supply changes, not other products.",
  });
  return doc;
}

Json fa4_balance_recompute(const Data& data, const Json& stored) {
  Json record = stored_object(stored, "sources");
  record["sources"] = rehash_sources(data, stored_list(record, "sources"));
  return with_stored_prose(fa4_balance_document(data, record), stored);
}

}  // namespace bb::calc
