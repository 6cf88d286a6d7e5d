// `qwen-persistent-tasks` (see persistent_tasks.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/persistent_tasks.py and the interval peak of
// topics/pipeline_schedule.py (bojieli/ai-infra-book). Times are exact fractions of a nanosecond,
// printed both as "num/den" strings and as the nearest double, as the reference does.
#include "calc/persistent_tasks.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

struct Interval {
  Rational start, end;
  Int bytes;
};

// The largest sum of bytes alive at once; at equal times a release comes before an allocation.
Int peak_live(const std::vector<Interval>& intervals) {
  std::vector<std::pair<Rational, Int>> events;
  for (const auto& iv : intervals)
    if (iv.start < iv.end) {
      events.emplace_back(iv.start, iv.bytes);
      events.emplace_back(iv.end, Int(0) - iv.bytes);
    }
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
    if (a.first < b.first) return true;
    if (b.first < a.first) return false;
    return a.second < b.second;
  });
  Int current = 0, peak = 0;
  for (const auto& [time, delta] : events) {
    current += delta;
    peak = max(peak, current);
  }
  return peak;
}

// work * 1e9 / rate nanoseconds.
Rational nanoseconds(Int work, Int rate) {
  return Rational::of(work) * Rational::of(1'000'000'000) / Rational::of(rate);
}

void check(const PersistentTasksScenario& in) {
  for (auto [v, name] : {std::pair{in.tokens, "tokens"},
                         {in.tile_rows, "tile_rows"},
                         {in.matrix_flops_per_second, "matrix_flops_per_second"},
                         {in.activation_elements_per_second, "activation_elements_per_second"}})
    if (v < 1) throw Error(std::string(name) + " must be positive");
  for (auto [v, name] : {std::pair{in.host_launch_ns, "host_launch_ns"},
                         {in.task_dispatch_ns, "task_dispatch_ns"},
                         {in.event_publish_ns, "event_publish_ns"}})
    if (v < 0) throw Error(std::string(name) + " must be nonnegative");
}

Json times_exact(const Rational (&t)[4]) {
  return Json{{"producer_start", t[0].to_string()},
              {"producer_ready", t[1].to_string()},
              {"consumer_start", t[2].to_string()},
              {"consumer_done", t[3].to_string()}};
}
Json times_float(const Rational (&t)[4]) {
  return Json{{"producer_start", t[0].to_double()},
              {"producer_ready", t[1].to_double()},
              {"consumer_start", t[2].to_double()},
              {"consumer_done", t[3].to_double()}};
}

}  // namespace

Json persistent_tasks_document(const Data& data, const PersistentTasksScenario& in) {
  check(in);
  const ModelDims dims = model_dims(data.model(in.model));
  if (dims.adapter != Adapter::Qwen3Dense) throw Error("model " + in.model + " is not a Qwen3 dense model");
  if (in.tokens > dims.max_positions)
    throw Error("tokens must not exceed the model's max_position_embeddings (" +
                std::to_string(dims.max_positions.value()) + ")");
  const Int h = dims.hidden, f = dims.intermediate, T = in.tokens;
  // Every tile is listed: a bound keeps a hostile scenario from exhausting memory.
  if (ceil_div(T, in.tile_rows) > 16384) throw Error("tokens / tile_rows gives more than 16384 tiles");
  const Rational launch = Rational::of(in.host_launch_ns);
  const Rational task_cost = Rational::of(in.task_dispatch_ns + in.event_publish_ns);
  const Rational matrix_total = nanoseconds(Int(2) * T * h * f, in.matrix_flops_per_second);
  const Rational vector_total = nanoseconds(T * f, in.activation_elements_per_second);
  // Coarse kernels: the whole producer finishes before the consumer's launch.
  const Rational barrier_finish = launch + launch + matrix_total + vector_total;

  Rational matrix_free = launch, vector_free = launch;
  Json tiles = Json::array();
  std::vector<Interval> intermediate;
  Int index = 0;
  for (Int start = 0; start < T; start += in.tile_rows, index += 1) {
    const Int m = min(in.tile_rows, T - start);
    const Int flops = Int(2) * m * h * f, elements = m * f;
    // Each task pays dispatch and event publication on its own worker, before its work.
    const Rational producer_start = matrix_free;
    const Rational producer_done =
        producer_start + task_cost + nanoseconds(flops, in.matrix_flops_per_second);
    const Rational consumer_start = vector_free < producer_done ? producer_done : vector_free;
    const Rational consumer_done =
        consumer_start + task_cost + nanoseconds(elements, in.activation_elements_per_second);
    matrix_free = producer_done;
    vector_free = consumer_done;
    const Int bytes = Int(2) * m * f;
    intermediate.push_back({producer_start, consumer_done, bytes});
    const Rational times[4] = {producer_start, producer_done, consumer_start, consumer_done};
    tiles.push_back(Json{{"tile", index.value()},
                         {"rows", m.value()},
                         {"row_start", start.value()},
                         {"intermediate_bytes", bytes.value()},
                         {"matrix_flops", flops.value()},
                         {"activation_elements", elements.value()},
                         {"exact_ns", times_exact(times)},
                         {"nanoseconds", times_float(times)}});
  }
  const Int n = index;
  const Rational finish = vector_free;

  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "qwen-persistent-tasks";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"tokens", T.value()},
                         {"tile_rows", in.tile_rows.value()},
                         {"matrix_flops_per_second", in.matrix_flops_per_second.value()},
                         {"activation_elements_per_second", in.activation_elements_per_second.value()},
                         {"host_launch_ns", in.host_launch_ns.value()},
                         {"task_dispatch_ns", in.task_dispatch_ns.value()},
                         {"event_publish_ns", in.event_publish_ns.value()}};
  doc["sources"] = in.sources.is_null() ? model_provenance(data, in.model) : in.sources;
  doc["persistent_tiles"] = tiles;
  Json s = Json::object();
  s["tiles"] = n.value();
  s["matrix_flops"] = (Int(2) * T * h * f).value();
  s["activation_elements"] = (T * f).value();
  s["coarse_host_launches"] = 2;
  s["persistent_host_launches"] = 1;
  s["persistent_device_tasks"] = (Int(2) * n).value();
  s["completion_event_publications"] = (Int(2) * n).value();
  s["intertask_dependency_edges"] = n.value();
  s["event_poll_iterations"] = nullptr;
  s["task_dispatch_total_ns"] = (Int(2) * n * in.task_dispatch_ns).value();
  s["event_publish_total_ns"] = (Int(2) * n * in.event_publish_ns).value();
  s["intermediate_total_bytes"] = (Int(2) * T * f).value();
  s["intermediate_write_read_bytes"] = (Int(4) * T * f).value();
  s["persistent_intermediate_live_peak_bytes"] = peak_live(intermediate).value();
  s["barrier_finish_exact_ns"] = barrier_finish.to_string();
  s["barrier_finish_ns"] = barrier_finish.to_double();
  s["persistent_finish_exact_ns"] = finish.to_string();
  s["persistent_finish_ns"] = finish.to_double();
  s["hypothetical_speedup"] = (barrier_finish / finish).to_double();
  s["actual_gpu_seconds"] = nullptr;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "One up projection [M,H]x[H,F] of a Qwen dense layer followed by SiLU, cut into row tiles with no "
      "cross-tile reduction; not a whole FFN. SiLU is served at an element rate, not counted as matrix work.",
      "One serial matrix worker produces and one serial vector worker consumes; the rates, launch, "
      "dispatch and event costs are declared inputs, not vendor peaks or measurements.",
      "Coarse: two host launches, the consumer starts after the whole producer. Persistent: one launch, "
      "two device tasks per tile, each paying dispatch and event publication on its own worker.",
      "A tile's intermediate lives from its producer's start to its consumer's end; the peak is the most "
      "bytes alive at once, with no slot budget imposed.",
  });
  return doc;
}

Json persistent_tasks_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  PersistentTasksScenario in;
  in.model = stored_string(stored, "model", "");
  in.tokens = stored_int(s, "tokens", "scenario");
  in.tile_rows = stored_int(s, "tile_rows", "scenario");
  in.matrix_flops_per_second = stored_int(s, "matrix_flops_per_second", "scenario");
  in.activation_elements_per_second = stored_int(s, "activation_elements_per_second", "scenario");
  in.host_launch_ns = stored_int(s, "host_launch_ns", "scenario", 0);
  in.task_dispatch_ns = stored_int(s, "task_dispatch_ns", "scenario", 0);
  in.event_publish_ns = stored_int(s, "event_publish_ns", "scenario", 0);
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  return with_stored_prose(persistent_tasks_document(data, in), stored);
}

}  // namespace bb::calc
