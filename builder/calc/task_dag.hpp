// A deterministic non-preemptive list schedule of a task DAG on serial resources: the scheduler of the
// real book's request DAG (topics/request_dag.py `schedule`), which other calculations reuse.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct DagTask {
  std::string id;
  Int duration = 0;
  std::vector<std::string> deps;
  std::optional<std::string> resource;  // a capacity-one serial resource; none: unconstrained
};

struct ScheduledTask {
  std::string id;
  std::optional<std::string> resource;
  Int start = 0, end = 0, duration = 0;
  std::optional<std::string> critical_predecessor;  // the predecessor that ended last
  std::vector<std::string> scheduled_predecessors;  // deps, then the resource's previous task
};

struct DagSchedule {
  std::vector<ScheduledTask> tasks;  // in the order they were scheduled
  Int finish = 0;
  std::vector<std::string> critical_path;
  Int serial_work = 0;
};

// Repeatedly starts, among the tasks whose deps are done, the one that can start earliest (ties: input
// order); a task starts when its deps and its resource's previous task have ended. Unknown or duplicate
// ids, negative durations and cycles are Errors.
DagSchedule schedule_dag(const std::vector<DagTask>& tasks);

}  // namespace bb::calc
