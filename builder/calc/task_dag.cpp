// The request-DAG list scheduler (see task_dag.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/request_dag.py `schedule` (bojieli/ai-infra-book).
#include "calc/task_dag.hpp"

#include <map>
#include <set>

#include "calc/error.hpp"

namespace bb::calc {

DagSchedule schedule_dag(const std::vector<DagTask>& tasks) {
  std::map<std::string, size_t> index_of;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].id.empty() || !index_of.emplace(tasks[i].id, i).second)
      throw Error("task ids must be unique and nonempty ('" + tasks[i].id + "')");
    if (tasks[i].duration < 0) throw Error("task " + tasks[i].id + ": duration must be nonnegative");
  }
  for (const auto& t : tasks)
    for (const auto& d : t.deps)
      if (!index_of.count(d)) throw Error("task " + t.id + " depends on unknown task " + d);

  DagSchedule out;
  std::vector<size_t> pending(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) pending[i] = i;
  std::map<std::string, size_t> done;  // id -> position in out.tasks
  std::map<std::string, std::string> resource_last;
  while (!pending.empty()) {
    bool found = false;
    size_t best_pos = 0;
    Int best_start = 0;
    std::optional<std::string> best_pred;
    std::vector<std::string> best_preds;
    for (size_t pos = 0; pos < pending.size(); ++pos) {
      const DagTask& t = tasks[pending[pos]];
      bool ready = true;
      for (const auto& d : t.deps) ready = ready && done.count(d);
      if (!ready) continue;
      std::vector<std::string> preds = t.deps;
      if (t.resource)
        if (auto it = resource_last.find(*t.resource); it != resource_last.end()) preds.push_back(it->second);
      // The first predecessor with the latest end (Python's max keeps the first of equals).
      std::optional<std::string> pred;
      Int start = 0;
      for (const auto& p : preds) {
        Int end = out.tasks[done.at(p)].end;
        if (!pred || start < end) {
          pred = p;
          start = end;
        }
      }
      // Earliest start first; among equal starts the first pending in input order.
      if (!found || start < best_start) {
        found = true;
        best_pos = pos;
        best_start = start;
        best_pred = pred;
        best_preds = std::move(preds);
      }
    }
    if (!found) throw Error("the tasks' dependencies form a cycle");
    const DagTask& t = tasks[pending[best_pos]];
    ScheduledTask row{t.id, t.resource, best_start, best_start + t.duration, t.duration, best_pred, {}};
    std::set<std::string> seen;
    for (const auto& p : best_preds)
      if (seen.insert(p).second) row.scheduled_predecessors.push_back(p);
    done[t.id] = out.tasks.size();
    out.tasks.push_back(std::move(row));
    if (t.resource) resource_last[*t.resource] = t.id;
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best_pos));
  }
  // The first task (in schedule order) with the latest end closes the critical path.
  const ScheduledTask* terminal = nullptr;
  for (const auto& r : out.tasks)
    if (!terminal || terminal->end < r.end) terminal = &r;
  for (const auto& t : tasks) out.serial_work += t.duration;
  if (!terminal) return out;
  out.finish = terminal->end;
  for (const ScheduledTask* cur = terminal; cur;) {
    out.critical_path.insert(out.critical_path.begin(), cur->id);
    cur = cur->critical_predecessor ? &out.tasks[done.at(*cur->critical_predecessor)] : nullptr;
  }
  return out;
}

}  // namespace bb::calc
