// `request-dag`: a request as a DAG of tasks on serial resources, scheduled before and after a change of
// durations or resources; finish time, critical path and the serial-equivalent (Amdahl) work.
// Ported from the real book's calculations/src/infra_calc/topics/request_dag.py (bojieli/ai-infra-book):
// non-preemptive list scheduling, earliest start first, ties by input order; a task with a resource
// waits for the previous task on that resource.
#include <algorithm>
#include <map>
#include <optional>

#include "calc/calculations.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

struct Task {
  std::string id;
  Int duration;
  std::vector<std::string> deps;
  std::optional<std::string> resource;
};

struct Scheduled {
  Json rows = Json::array();
  Int finish = 0;
  std::vector<std::string> critical_path;
  Int serial_work = 0;
};

Json nullable(const std::optional<std::string>& s) {
  return s ? Json(*s) : Json();
}

std::optional<std::string> resource_of(const Json& v, const char* what) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) throw Error(std::string(what) + " must be a string or null, got " + v.dump());
  return v.get<std::string>();
}

Scheduled schedule(const std::vector<Task>& tasks) {
  std::map<std::string, const Task*> by_id;
  for (const auto& t : tasks) by_id[t.id] = &t;
  std::vector<std::string> pending;
  for (const auto& t : tasks) pending.push_back(t.id);
  std::map<std::string, Json> done;
  std::vector<std::string> done_order;
  std::map<std::string, std::string> resource_last;
  Scheduled out;
  while (!pending.empty()) {
    struct Ready {
      Int start;
      std::size_t index;
      std::optional<std::string> predecessor;
      std::vector<std::string> predecessors;
    };
    std::optional<Ready> best;
    for (std::size_t index = 0; index < pending.size(); ++index) {
      const Task& task = *by_id[pending[index]];
      if (!std::all_of(task.deps.begin(), task.deps.end(), [&](const auto& d) { return done.count(d); }))
        continue;
      std::vector<std::string> preds = task.deps;
      if (task.resource)
        if (auto it = resource_last.find(*task.resource); it != resource_last.end())
          preds.push_back(it->second);
      // max() by end time keeps the first of equals, as Python's max does.
      std::optional<std::string> pred;
      Int start = 0;
      for (const auto& p : preds) {
        Int end = done[p]["end_ns"].get<std::int64_t>();
        if (!pred || end > start) pred = p, start = end;
      }
      if (!best || start < best->start) best = Ready{start, index, pred, preds};
    }
    if (!best) throw Error("Dependency cycle");
    const Task& task = *by_id[pending[best->index]];
    std::vector<std::string> unique;
    for (const auto& p : best->predecessors)
      if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
    Json row = Json::object();
    row["id"] = task.id;
    row["resource"] = nullable(task.resource);
    row["start_ns"] = best->start.value();
    row["end_ns"] = (best->start + task.duration).value();
    row["duration_ns"] = task.duration.value();
    row["critical_predecessor"] = nullable(best->predecessor);
    row["scheduled_predecessors"] = unique;
    out.rows.push_back(row);
    done[task.id] = row;
    done_order.push_back(task.id);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best->index));
    if (task.resource) resource_last[*task.resource] = task.id;
  }
  std::string terminal = done_order.front();
  for (const auto& id : done_order)
    if (done[id]["end_ns"].get<std::int64_t>() > done[terminal]["end_ns"].get<std::int64_t>()) terminal = id;
  for (std::optional<std::string> c = terminal; c;) {
    out.critical_path.push_back(*c);
    const Json& p = done[*c]["critical_predecessor"];
    c = p.is_null() ? std::nullopt : std::optional<std::string>(p.get<std::string>());
  }
  std::reverse(out.critical_path.begin(), out.critical_path.end());
  out.finish = done[terminal]["end_ns"].get<std::int64_t>();
  for (const auto& t : tasks) out.serial_work += t.duration;
  return out;
}

Json schedule_json(const Scheduled& s) {
  return Json{{"tasks", s.rows},
              {"finish_ns", s.finish.value()},
              {"critical_path", s.critical_path},
              {"serial_work_ns", s.serial_work.value()}};
}

Json ratio(Int a, Int b) {
  return b.value() ? Json(true_div(a, b)) : Json();
}

std::vector<Task> read_tasks(const Json& list) {
  if (!list.is_array() || list.empty()) throw Error("Nonempty task list required");
  std::vector<Task> tasks;
  for (const auto& t : list) {
    const Json& id = member(t, "id", "a task");
    if (!id.is_string() || id.get<std::string>().empty() ||
        std::any_of(tasks.begin(), tasks.end(), [&](const Task& x) { return x.id == id.get<std::string>(); }))
      throw Error("Unique nonempty task IDs required");
    Task task{
        id.get<std::string>(), positive_int(member(t, "duration_ns", "a task"), "duration_ns", true), {}, {}};
    const Json& deps = member(t, "deps", "a task");
    if (!deps.is_array() ||
        std::any_of(deps.begin(), deps.end(), [](const Json& d) { return !d.is_string(); }))
      throw Error("deps must be IDs");
    for (const auto& d : deps) task.deps.push_back(d.get<std::string>());
    if (t.contains("resource")) task.resource = resource_of(t["resource"], "resource");
    tasks.push_back(std::move(task));
  }
  for (const auto& t : tasks)
    for (const auto& d : t.deps)
      if (std::none_of(tasks.begin(), tasks.end(), [&](const Task& x) { return x.id == d; }))
        throw Error("Unknown dependency '" + d + "' of task '" + t.id + "'");
  return tasks;
}

Json default_tasks() {
  auto task = [](const char* id, std::int64_t ns, std::vector<std::string> deps, const char* resource) {
    return Json{{"id", id}, {"duration_ns", ns}, {"deps", deps}, {"resource", resource}};
  };
  return Json::array({task("prepare", 10000, {}, "host"), task("hotspot", 60000, {"prepare"}, "compute"),
                      task("parallel", 40000, {"prepare"}, "transfer"),
                      task("finish", 10000, {"hotspot", "parallel"}, "host")});
}

}  // namespace

Json request_dag_recompute(const Data&, const Json& stored) {
  const Json& s = recorded_scenario(stored);
  const bool example = !s.contains("tasks") || s["tasks"].is_null();
  const Json task_list = example ? default_tasks() : s["tasks"];
  const Json none;
  const Json& dur_in = s.contains("duration_overrides") ? s["duration_overrides"] : none;
  const Json& res_in = s.contains("resource_overrides") ? s["resource_overrides"] : none;
  const Json durations = !dur_in.is_null() ? dur_in : example ? Json{{"hotspot", 15000}} : Json::object();
  const Json resources = !res_in.is_null() ? res_in : Json::object();
  std::vector<Task> tasks = read_tasks(task_list);
  if (!durations.is_object() || !resources.is_object()) throw Error("Overrides must be mappings");
  auto known = [&](const std::string& id) {
    return std::any_of(tasks.begin(), tasks.end(), [&](const Task& t) { return t.id == id; });
  };
  for (const auto* overrides : {&durations, &resources})
    for (const auto& [id, v] : overrides->items())
      if (!known(id)) throw Error("Override names unknown task '" + id + "'");
  std::vector<Task> changed = tasks;
  for (auto& t : changed) {
    if (durations.contains(t.id)) t.duration = positive_int(durations[t.id], "override duration", true);
    if (resources.contains(t.id)) t.resource = resource_of(resources[t.id], "resource override");
  }
  for (const auto& [id, v] : durations.items()) positive_int(v, "override duration", true);
  Scheduled baseline = schedule(tasks), modified = schedule(changed);
  // Amdahl applies exactly to this explicit serial-equivalent work sum.
  Int frozen = 0;
  for (const auto& t : changed)
    if (std::find(baseline.critical_path.begin(), baseline.critical_path.end(), t.id) !=
        baseline.critical_path.end())
      frozen += t.duration;
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "request-dag";
  doc["scenario"] =
      Json{{"tasks", task_list}, {"duration_overrides", durations}, {"resource_overrides", resources}};
  doc["sources"] = Json::array();
  doc["request_schedules"] =
      Json{{"baseline", schedule_json(baseline)}, {"modified", schedule_json(modified)}};
  Json sum = Json::object();
  sum["baseline_finish_ns"] = baseline.finish.value();
  sum["modified_finish_ns"] = modified.finish.value();
  sum["request_speedup"] = ratio(baseline.finish, modified.finish);
  sum["baseline_critical_path"] = baseline.critical_path;
  sum["modified_critical_path"] = modified.critical_path;
  sum["serial_equivalent_before_ns"] = baseline.serial_work.value();
  sum["serial_equivalent_after_ns"] = modified.serial_work.value();
  sum["serial_equivalent_speedup"] = ratio(baseline.serial_work, modified.serial_work);
  sum["frozen_old_path_ns"] = frozen.value();
  sum["actual_measured_request_ns"] = nullptr;
  doc["summary"] = sum;
  doc["assumptions"] = Json::array({
      "Tasks start when their explicit dependencies are done; tasks naming the same resource run one at a "
      "time without preemption (null: no resource). The earliest startable task goes first, ties in input "
      "order; this is not claimed to be an optimal schedule.",
      "The critical path is recomputed over dependencies and the resource order actually taken; "
      "frozen_old_path only re-times the old path and is not the changed request's time.",
      "serial_equivalent is the cost of running every task serially, the quantity Amdahl's law applies to; "
      "no measured request is implied.",
  });
  return doc;
}

}  // namespace bb::calc
