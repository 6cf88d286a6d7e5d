// `qwen-matrix-vector-handoff` (see matrix_vector_handoff.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/matrix_vector_handoff.py (bojieli/ai-infra-book), scheduled by the
// request-DAG scheduler (task_dag.hpp). Each row group completes its whole QK contraction before its
// scores are published; a slot is held from QK's start to PV's end.
#include "calc/matrix_vector_handoff.hpp"

#include <map>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/stored_result.hpp"
#include "calc/task_dag.hpp"

namespace bb::calc {
namespace {

Json opt(const std::optional<std::string>& s) {
  return s ? Json(*s) : Json();
}

void check(const MatrixVectorScenario& in) {
  for (auto [v, name] : {std::pair{in.length, "length"},
                         {in.group_rows, "group_rows"},
                         {in.slots, "slots"},
                         {in.matrix_flops_per_tick, "matrix_flops_per_tick"},
                         {in.scalar_ops_per_tick, "scalar_ops_per_tick"},
                         {in.exp_ops_per_tick, "exp_ops_per_tick"},
                         {in.div_ops_per_tick, "div_ops_per_tick"},
                         {in.comparison_ops_per_tick, "comparison_ops_per_tick"},
                         {in.link_bytes_per_tick, "link_bytes_per_tick"},
                         {in.capacity_bytes, "capacity_bytes"}})
    if (v < 1) throw Error(std::string(name) + " must be positive");
  if (in.path != "staged" && in.path != "direct")
    throw Error("path must be staged or direct, got '" + in.path + "'");
}

}  // namespace

Json matrix_vector_document(const Data& data, const MatrixVectorScenario& in) {
  check(in);
  const ModelDims dims = model_dims(data.model(in.model));
  const Int d = dims.head_dim, L = in.length, R = in.group_rows;
  if (L > dims.max_positions || L % R != 0)
    throw Error(
        "length must be whole row groups (a multiple of group_rows) within max_position_embeddings (" +
        std::to_string(dims.max_positions.value()) + ")");
  const Int groups = L / R;
  if (groups > kMaxHandoffGroups)
    throw Error("at most " + std::to_string(kMaxHandoffGroups) + " row groups, got " +
                std::to_string(groups.value()));
  const Int score_bytes = Int(4) * R * L, probability_bytes = Int(2) * R * L;  // FP32 scores, BF16 P
  const Int slot_bytes = score_bytes + probability_bytes;
  const Int hops = in.path == "staged" ? 2 : 1;

  std::vector<DagTask> tasks;
  Json work = Json::array();
  Int total_flops = 0;
  for (Int i = 0; i < groups; i += 1) {
    const std::string g = "g" + std::to_string(i.value());
    const Int qk = Int(2) * R * L * d;
    const Int scalar = Int(3) * R * L - R;  // scale, subtract, sum
    const Int comparisons = R * (L - 1), exp = R * L, division = R * L;
    // Entries above the diagonal in rows iR .. iR+R-1: the sum of L - row - 1 over those rows.
    const Int masked = R * (L - 1) - R * (Int(2) * i * R + R - 1) / 2;
    std::vector<std::string> deps;
    if (i >= in.slots) deps.push_back("g" + std::to_string((i - in.slots).value()) + ".pv");
    if (i > 0) deps.push_back("g" + std::to_string((i - 1).value()) + ".qk");
    // One vector server performs the classes one after another.
    const Int vector = ceil_div(scalar, in.scalar_ops_per_tick) +
                       ceil_div(comparisons, in.comparison_ops_per_tick) +
                       ceil_div(exp, in.exp_ops_per_tick) + ceil_div(division, in.div_ops_per_tick);
    tasks.push_back({g + ".qk", ceil_div(qk, in.matrix_flops_per_tick), deps, "matrix"});
    tasks.push_back(
        {g + ".scores", ceil_div(hops * score_bytes, in.link_bytes_per_tick), {g + ".qk"}, "handoff"});
    tasks.push_back({g + ".softmax", vector, {g + ".scores"}, "vector"});
    tasks.push_back({g + ".probabilities",
                     ceil_div(hops * probability_bytes, in.link_bytes_per_tick),
                     {g + ".softmax"},
                     "handoff"});
    tasks.push_back({g + ".pv", ceil_div(qk, in.matrix_flops_per_tick), {g + ".probabilities"}, "matrix"});
    total_flops += qk + qk;
    work.push_back(Json{{"group", i.value()},
                        {"row_start", (i * R).value()},
                        {"row_count", R.value()},
                        {"QK_shapes", {{R.value(), d.value()}, {d.value(), L.value()}}},
                        {"PV_shapes", {{R.value(), L.value()}, {L.value(), d.value()}}},
                        {"qk_flops", qk.value()},
                        {"pv_flops", qk.value()},
                        {"basic_scalar_ops", scalar.value()},
                        {"maximum_comparisons", comparisons.value()},
                        {"exponential_ops", exp.value()},
                        {"division_ops", division.value()},
                        {"masked_score_elements", masked.value()},
                        {"score_handoff_bytes", score_bytes.value()},
                        {"probability_handoff_bytes", probability_bytes.value()},
                        {"served_handoff_bytes", (hops * slot_bytes).value()}});
  }
  const DagSchedule sched = schedule_dag(tasks);
  Json timeline = Json::array();
  std::map<std::string, const ScheduledTask*> by_id;
  Json first_vector;
  for (const auto& t : sched.tasks) {
    by_id[t.id] = &t;
    timeline.push_back(Json{{"id", t.id},
                            {"resource", opt(t.resource)},
                            {"start_tick", t.start.value()},
                            {"end_tick", t.end.value()},
                            {"duration_ticks", t.duration.value()},
                            {"critical_predecessor", opt(t.critical_predecessor)},
                            {"scheduled_predecessors", t.scheduled_predecessors}});
    if (t.resource == "vector" &&
        (first_vector.is_null() || t.start.value() < first_vector.get<std::int64_t>()))
      first_vector = t.start.value();
  }
  Json ownership = Json::array();
  for (Int i = 0; i < groups; i += 1) {
    const std::string g = "g" + std::to_string(i.value());
    ownership.push_back(Json{{"group", i.value()},
                             {"slot", (i % in.slots).value()},
                             {"start_tick", by_id.at(g + ".qk")->start.value()},
                             {"release_tick", by_id.at(g + ".pv")->end.value()}});
  }
  const bool fits = in.slots * slot_bytes <= in.capacity_bytes;

  Json doc = Json::object();
  doc["calculation"] = "qwen-matrix-vector-handoff";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"length", L.value()},
                         {"group_rows", R.value()},
                         {"slots", in.slots.value()},
                         {"path", in.path},
                         {"matrix_flops_per_tick", in.matrix_flops_per_tick.value()},
                         {"scalar_ops_per_tick", in.scalar_ops_per_tick.value()},
                         {"exp_ops_per_tick", in.exp_ops_per_tick.value()},
                         {"div_ops_per_tick", in.div_ops_per_tick.value()},
                         {"comparison_ops_per_tick", in.comparison_ops_per_tick.value()},
                         {"link_bytes_per_tick", in.link_bytes_per_tick.value()},
                         {"capacity_bytes", in.capacity_bytes.value()}};
  doc["sources"] = in.sources.is_null() ? model_provenance(data, in.model) : in.sources;
  doc["work"] = work;
  doc["timeline"] = timeline;
  doc["slot_ownership"] = ownership;
  Json s = Json::object();
  s["groups"] = groups.value();
  s["fp32_score_bytes_per_slot"] = score_bytes.value();
  s["bf16_probability_bytes_per_slot"] = probability_bytes.value();
  s["reserved_handoff_bytes"] = (in.slots * slot_bytes).value();
  s["passes_declared_handoff_capacity"] = fits;
  s["total_matrix_flops"] = total_flops.value();
  s["crossing_payload_bytes"] = (groups * slot_bytes).value();
  s["served_handoff_bytes"] = (hops * groups * slot_bytes).value();
  s["finish_tick"] = sched.finish.value();
  s["capacity_qualified_finish_tick"] = fits ? Json(sched.finish.value()) : Json();
  s["first_vector_start_tick"] = first_vector;
  s["measured_kernel_seconds"] = nullptr;
  s["actual_instruction_count"] = nullptr;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "One head with the full causal score matrix materialised; the GEMMs and the softmax run over the "
      "whole rectangle, masked entries included.",
      "Each row group contracts the whole key extent and head_dim before its scores go to the softmax; "
      "FP32 scores and BF16 probabilities share the group's slot from QK's start to PV's end.",
      "The staged path serves a write and a read of each payload on one handoff server, the direct path "
      "one transfer; these are declared paths, not a vendor's implementation.",
      "Rates are declared work per tick. QK and PV share one matrix server, the softmax classes run one "
      "after another on one vector server; the schedule is the earliest-ready list schedule.",
  });
  return doc;
}

Json matrix_vector_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  MatrixVectorScenario in;
  in.model = stored_string(stored, "model", "");
  in.length = stored_int(s, "length", "scenario");
  in.group_rows = stored_int(s, "group_rows", "scenario");
  in.slots = stored_int(s, "slots", "scenario");
  in.path = stored_string(s, "path", "scenario");
  in.matrix_flops_per_tick = stored_int(s, "matrix_flops_per_tick", "scenario");
  in.scalar_ops_per_tick = stored_int(s, "scalar_ops_per_tick", "scenario");
  in.exp_ops_per_tick = stored_int(s, "exp_ops_per_tick", "scenario");
  in.div_ops_per_tick = stored_int(s, "div_ops_per_tick", "scenario");
  in.comparison_ops_per_tick = stored_int(s, "comparison_ops_per_tick", "scenario");
  in.link_bytes_per_tick = stored_int(s, "link_bytes_per_tick", "scenario");
  in.capacity_bytes = stored_int(s, "capacity_bytes", "scenario");
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  return with_stored_prose(matrix_vector_document(data, in), stored);
}

}  // namespace bb::calc
