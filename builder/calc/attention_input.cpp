// `qwen-attention-input-pipeline` (see attention_input.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/attention_input_pipeline.py (bojieli/ai-infra-book): the tick
// rounding, the slot schedule and the enumerated modes and slot counts are carried over unchanged.
#include "calc/attention_input.hpp"

#include <algorithm>
#include <vector>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

// Each operation's service rounds up to whole ticks on its own.
Int ticks(Int work, Int rate) {
  return ceil_div(work, rate);
}

struct Timing {
  Json chunks = Json::array();
  Int finish = 0, busy = 0, idle = 0;
};

// Chunk i may issue once the issue server is free and its slot (that of chunk i - slots) is released
// by the end of that chunk's compute; synchronous mode also waits for the previous compute, and adds
// the register staging service before the data is ready.
Timing schedule(Int chunks, Int load, Int compute, Int latency, Int slots, Int register_ticks, bool sync) {
  Timing t;
  std::vector<Int> compute_end;
  Int issue_free = 0, compute_free = 0;
  for (Int i = 0; i < chunks; i += 1) {
    Int slot_free = i >= slots ? compute_end[static_cast<size_t>((i - slots).value())] : Int(0);
    Int issue = max(max(issue_free, slot_free), sync ? compute_free : Int(0));
    Int transfer_end = issue + load;
    Int ready = transfer_end + latency + register_ticks;
    Int start = max(ready, compute_free);
    Int end = start + compute;
    t.chunks.push_back(Json{{"chunk", i.value()},
                            {"slot", (i % slots).value()},
                            {"issue_start", issue.value()},
                            {"transfer_end", transfer_end.value()},
                            {"data_ready", ready.value()},
                            {"compute_start", start.value()},
                            {"compute_end", end.value()},
                            {"slot_released", end.value()},
                            {"slot_wait_ticks", max(Int(0), slot_free - issue_free).value()},
                            {"compute_idle_ticks", (start - compute_free).value()}});
    t.idle += start - compute_free;
    t.busy += compute;
    compute_end.push_back(end);
    issue_free = transfer_end;
    compute_free = end;
  }
  t.finish = compute_free;
  return t;
}

Json timing_json(const Timing& t) {
  return Json{{"chunks", t.chunks},
              {"finish_tick", t.finish.value()},
              {"total_compute_busy_ticks", t.busy.value()},
              {"total_compute_idle_ticks", t.idle.value()}};
}

void check(const AttentionInputScenario& in) {
  auto positive = [](Int v, const char* name) {
    if (v < 1) throw Error(std::string(name) + " must be positive");
  };
  positive(in.tile_m, "tile_m");
  positive(in.tile_n, "tile_n");
  positive(in.tile_k, "tile_k");
  if (in.latency_ticks < 0) throw Error("latency_ticks must be nonnegative");
  positive(in.input_bytes_per_tick, "input_bytes_per_tick");
  positive(in.matrix_flops_per_tick, "matrix_flops_per_tick");
  positive(in.register_bytes_per_tick, "register_bytes_per_tick");
  positive(in.capacity_bytes, "capacity_bytes");
}

}  // namespace

Json attention_input_document(const Data& data, const AttentionInputScenario& in) {
  check(in);
  const ModelDims dims = model_dims(data.model(in.model));
  const Int d = dims.head_dim;
  if (d % in.tile_k != 0)
    throw Error("tile_k (" + std::to_string(in.tile_k.value()) + ") must divide head_dim (" +
                std::to_string(d.value()) + ") for this exact chunking");
  if (in.tile_m > dims.max_positions || in.tile_n > dims.max_positions)
    throw Error("tile_m and tile_n must not exceed the model's max_position_embeddings (" +
                std::to_string(dims.max_positions.value()) + ")");
  const Int count = d / in.tile_k;
  // Every chunk is listed for 9 schedules: a bound keeps a hostile config from exhausting memory.
  if (count > 4096)
    throw Error("head_dim / tile_k is " + std::to_string(count.value()) + " chunks; at most 4096");
  const Int slot_bytes = Int(2) * (in.tile_m + in.tile_n) * in.tile_k;  // BF16 Q and K chunk
  const Int chunk_flops = Int(2) * in.tile_m * in.tile_n * in.tile_k;
  const Int load = ticks(slot_bytes, in.input_bytes_per_tick);
  const Int compute = ticks(chunk_flops, in.matrix_flops_per_tick);
  // Register ingress and egress are two byte interfaces.
  const Int reg = ticks(Int(2) * slot_bytes, in.register_bytes_per_tick);

  Json rows = Json::array();
  Json minimum, fastest;
  const Timing unlimited = schedule(count, load, compute, in.latency_ticks, count, 0, false);
  for (const char* mode : {"synchronous-register-stage", "asynchronous-direct-to-buffer"}) {
    const bool sync = std::string_view(mode).starts_with("synchronous");
    for (Int slots : {Int(1), Int(2), Int(4), Int(8)}) {
      const Timing t = schedule(count, load, compute, in.latency_ticks, slots, sync ? reg : Int(0), sync);
      const bool fits = slots * slot_bytes <= in.capacity_bytes;
      rows.push_back(Json{{"mode", mode},
                          {"input_slots", slots.value()},
                          {"smem_reserved_bytes", (slots * slot_bytes).value()},
                          {"smem_capacity_passes", fits},
                          {"register_staging_reserved_bytes", sync ? slot_bytes.value() : 0},
                          {"accumulator_reserved_bytes", (Int(4) * in.tile_m * in.tile_n).value()},
                          {"register_interface_bytes", sync ? (Int(2) * slot_bytes * count).value() : 0},
                          {"external_input_payload_bytes", (slot_bytes * count).value()},
                          {"timing", timing_json(t)},
                          {"capacity_qualified_finish_tick", fits ? Json(t.finish.value()) : Json()}});
      if (sync) continue;
      if (minimum.is_null() && t.finish == unlimited.finish) minimum = slots.value();
      if (fits && (fastest.is_null() || t.finish.value() < fastest.get<std::int64_t>()))
        fastest = t.finish.value();
    }
  }

  Json doc = Json::object();
  doc["calculation"] = "qwen-attention-input-pipeline";
  doc["model"] = in.model;
  doc["sources"] = in.sources.is_null() ? model_provenance(data, in.model) : in.sources;
  doc["scenario"] = Json{{"tile_m", in.tile_m.value()},
                         {"tile_n", in.tile_n.value()},
                         {"tile_k", in.tile_k.value()},
                         {"latency_ticks", in.latency_ticks.value()},
                         {"input_bytes_per_tick", in.input_bytes_per_tick.value()},
                         {"matrix_flops_per_tick", in.matrix_flops_per_tick.value()},
                         {"register_bytes_per_tick", in.register_bytes_per_tick.value()},
                         {"capacity_bytes", in.capacity_bytes.value()}};
  doc["shapes"] = Json{{"Q", {in.tile_m.value(), d.value()}},
                       {"K_math", {d.value(), in.tile_n.value()}},
                       {"scores", {in.tile_m.value(), in.tile_n.value()}}};
  doc["chunks"] = count.value();
  doc["chunk_flops"] = chunk_flops.value();
  doc["total_flops"] = (count * chunk_flops).value();
  doc["chunk_input_bytes"] = slot_bytes.value();
  doc["rows"] = rows;
  doc["no_slot_backpressure_finish_tick"] = unlimited.finish.value();
  doc["smallest_enumerated_slots_matching_unlimited"] = minimum;
  doc["fastest_capacity_qualified_async_tick"] = fastest;
  doc["assumptions"] = Json::array({
      "One rectangular QK GEMM of the model's real head_dim, split into head_dim / tile_k chunks that "
      "accumulate serially into FP32 scores; no causal mask, no instruction legality.",
      "A tick is an abstract scheduling unit; rates and the completion latency are declared inputs, and "
      "each service rounds up to whole ticks on its own.",
      "A slot is taken when its load issues and released when the chunk's compute ends (reusable in the "
      "same tick); synchronous mode serialises load, register staging (in and out) and compute.",
      "Only the shared-memory input capacity is screened; register staging and the FP32 accumulator are "
      "reported, not checked. The unlimited reference gives every chunk its own slot.",
      "The time ends when the last chunk's accumulation ends: output write, softmax, PV, launch and "
      "synchronisation are outside.",
  });
  return doc;
}

Json attention_input_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  AttentionInputScenario in;
  in.model = stored_string(stored, "model", "");
  in.tile_m = stored_int(s, "tile_m", "scenario");
  in.tile_n = stored_int(s, "tile_n", "scenario");
  in.tile_k = stored_int(s, "tile_k", "scenario");
  in.latency_ticks = stored_int(s, "latency_ticks", "scenario", 0);
  in.input_bytes_per_tick = stored_int(s, "input_bytes_per_tick", "scenario");
  in.matrix_flops_per_tick = stored_int(s, "matrix_flops_per_tick", "scenario");
  in.register_bytes_per_tick = stored_int(s, "register_bytes_per_tick", "scenario");
  in.capacity_bytes = stored_int(s, "capacity_bytes", "scenario");
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  return with_stored_prose(attention_input_document(data, in), stored);
}

}  // namespace bb::calc
