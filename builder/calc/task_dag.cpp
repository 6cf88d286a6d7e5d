// The request-DAG list scheduler (see task_dag.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/request_dag.py `schedule` (bojieli/ai-infra-book).
#include "calc/task_dag.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "calc/error.hpp"

namespace bb::calc {
namespace {
constexpr size_t kNone = std::numeric_limits<size_t>::max();
}  // namespace

DagSchedule schedule_dag(const std::vector<DagTask>& tasks) {
  // Ids, deps and resources as indices once, so that each round of the scan is cheap.
  std::map<std::string, size_t> index_of;
  std::map<std::string, size_t> resource_index;
  std::vector<std::vector<size_t>> deps(tasks.size());
  std::vector<size_t> resource(tasks.size(), kNone);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].id.empty() || !index_of.emplace(tasks[i].id, i).second)
      throw Error("task ids must be unique and nonempty ('" + tasks[i].id + "')");
    if (tasks[i].duration < 0) throw Error("task " + tasks[i].id + ": duration must be nonnegative");
    if (tasks[i].resource)
      resource[i] = resource_index.emplace(*tasks[i].resource, resource_index.size()).first->second;
  }
  for (size_t i = 0; i < tasks.size(); ++i)
    for (const auto& d : tasks[i].deps) {
      auto it = index_of.find(d);
      if (it == index_of.end()) throw Error("task " + tasks[i].id + " depends on unknown task " + d);
      deps[i].push_back(it->second);
    }

  // Tasks whose deps are all done, in input order; only they can start (Python scans every pending
  // task and skips the rest, which is the same choice at quadratic cost).
  std::vector<size_t> waiting(tasks.size()), ready;
  std::vector<std::vector<size_t>> dependents(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (size_t d : deps[i]) dependents[d].push_back(i);
    waiting[i] = deps[i].size();
    if (waiting[i] == 0) ready.push_back(i);
  }
  DagSchedule out;
  std::vector<size_t> done(tasks.size(), kNone);  // task -> position in out.tasks
  std::vector<size_t> resource_last(resource_index.size(), kNone);
  while (!ready.empty()) {
    size_t best_pos = kNone, best_pred = kNone;
    Int best_start = 0;
    for (size_t pos = 0; pos < ready.size(); ++pos) {
      const size_t t = ready[pos];
      // The first predecessor with the latest end (Python's max keeps the first of equals): the deps,
      // then the resource's previous task.
      size_t pred = kNone;
      Int start = 0;
      auto consider = [&](size_t p) {
        const Int end = out.tasks[done[p]].end;
        if (pred == kNone || start < end) {
          pred = p;
          start = end;
        }
      };
      for (size_t d : deps[t]) consider(d);
      if (resource[t] != kNone && resource_last[resource[t]] != kNone) consider(resource_last[resource[t]]);
      // Earliest start first; among equal starts the first in input order.
      if (best_pos == kNone || start < best_start) {
        best_pos = pos;
        best_start = start;
        best_pred = pred;
      }
    }
    const size_t t = ready[best_pos];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(best_pos));
    ScheduledTask row{
        tasks[t].id, tasks[t].resource, best_start, best_start + tasks[t].duration, tasks[t].duration, {},
        {}};
    if (best_pred != kNone) row.critical_predecessor = tasks[best_pred].id;
    std::set<size_t> seen;
    for (size_t d : deps[t])
      if (seen.insert(d).second) row.scheduled_predecessors.push_back(tasks[d].id);
    if (resource[t] != kNone && resource_last[resource[t]] != kNone &&
        seen.insert(resource_last[resource[t]]).second)
      row.scheduled_predecessors.push_back(tasks[resource_last[resource[t]]].id);
    done[t] = out.tasks.size();
    out.tasks.push_back(std::move(row));
    if (resource[t] != kNone) resource_last[resource[t]] = t;
    for (size_t next : dependents[t])
      if (--waiting[next] == 0) ready.insert(std::lower_bound(ready.begin(), ready.end(), next), next);
  }
  if (out.tasks.size() != tasks.size()) throw Error("the tasks' dependencies form a cycle");
  // The first task (in schedule order) with the latest end closes the critical path.
  const ScheduledTask* terminal = nullptr;
  for (const auto& r : out.tasks)
    if (!terminal || terminal->end < r.end) terminal = &r;
  for (const auto& t : tasks) out.serial_work += t.duration;
  if (!terminal) return out;
  out.finish = terminal->end;
  for (const ScheduledTask* cur = terminal; cur;) {
    out.critical_path.insert(out.critical_path.begin(), cur->id);
    cur = cur->critical_predecessor ? &out.tasks[done[index_of.at(*cur->critical_predecessor)]] : nullptr;
  }
  return out;
}

}  // namespace bb::calc
