// `measured-agent-trace-accounting`: pinned real agent runs (rounds of a model call then a tool call)
// re-accounted: measured model/tool/other seconds, the matrix FLOPs of each round's cached and cold
// prefill and its decode (from the forward model), a counterfactual faster model, and a hypothetical KV
// retention during tool waits. Ported from the real book's calculations/src/infra_calc/topics/agent_trace.py
// (bojieli/ai-infra-book). Its inputs are measurements: configs/agent-traces.lock.json names each trace's
// files under sources/agent-traces/ with their sha256. When they are not in the book the result is not
// recomputable (MissingInput), never counted as equal.
#include <algorithm>
#include <cmath>

#include "calc/calculations.hpp"
#include "calc/forward.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"
#include "calc/reproduce.hpp"
#include "inputs/file_io.hpp"

namespace bb::calc {

namespace {

struct TraceFiles {
  std::vector<Json> rounds;
  Json environment, final, checks;
  Json records;  // the lock's rows for this trace
};

std::string read_checked(const Data& data, const Json& record) {
  const std::string file = member(record, "file", "a trace record").get<std::string>();
  const auto path = require_input(data, file);
  auto read = inputs::read_bounded(path, kMaxDataFileBytes);
  if (!read.ok()) throw Error(file + ": " + inputs::read_problem(read, kMaxDataFileBytes));
  if (sha256_hex(read.bytes) != member(record, "sha256", "a trace record").get<std::string>())
    throw Error("Agent input checksum mismatch: " + file);
  return read.bytes;
}

TraceFiles read_trace(const Data& data, const std::string& trace) {
  const Json lock = read_json_file(require_input(data, "configs/agent-traces.lock.json"));
  if (!lock.is_object() || !lock.contains(trace) || !lock[trace].is_array())
    throw Error("Unknown pinned Agent trace '" + trace + "'");
  TraceFiles t;
  t.records = lock[trace];
  for (const auto& record : t.records) {
    const std::string bytes = read_checked(data, record);
    const std::string file = record["file"].get<std::string>();
    const std::string name = file.substr(file.rfind('/') + 1);
    try {
      if (name.ends_with(".jsonl")) {
        std::size_t at = 0;
        while (at < bytes.size()) {
          std::size_t end = bytes.find('\n', at);
          if (end == std::string::npos) end = bytes.size();
          std::string line = bytes.substr(at, end - at);
          if (!line.empty() && line.back() == '\r') line.pop_back();
          if (name == "rounds.jsonl") t.rounds.push_back(Json::parse(line));
          at = end + 1;
        }
      } else if (name == "environment.json") {
        t.environment = Json::parse(bytes);
      } else if (name == "final.json") {
        t.final = Json::parse(bytes);
      } else if (name == "independent-checks-v2.json") {
        t.checks = Json::parse(bytes);
      }
    } catch (const Json::parse_error& e) {
      throw Error(file + ": invalid JSON: " + e.what());
    }
  }
  if (t.rounds.empty() || t.environment.is_null() || t.final.is_null() || t.checks.is_null())
    throw Error("trace '" + trace +
                "' lacks rounds.jsonl, environment.json, final.json or independent-checks-v2.json");
  return t;
}

double seconds(const Json& record, const char* key) {
  const Json& v = member(record, key, "a trace round");
  if (v.is_boolean() || !v.is_number()) throw Error(std::string(key) + " must be a number");
  return v.get<double>();
}

Int matrix_flops(const ModelDims& dims, Int history, Int tokens) {
  ForwardScenario f;
  f.history = history;
  f.tokens = tokens;
  return compute_forward(dims, f, nullptr).summary["matrix_flops"].get<std::int64_t>();
}

}  // namespace

Json agent_trace_recompute(const Data& base, const Json& stored) {
  const Json& s = recorded_scenario(stored);
  const std::string trace =
      s.contains("trace") && s["trace"].is_string() ? s["trace"].get<std::string>() : "thinking-off";
  const Json speedup = s.contains("model_speedup") ? s["model_speedup"] : Json(1);
  if (speedup.is_boolean() || !speedup.is_number() || !std::isfinite(speedup.get<double>()) ||
      speedup.get<double>() <= 0)
    throw Error("model_speedup must be finite and positive");
  const Json selected = s.contains("selected_turn") ? s["selected_turn"] : Json();
  const std::string model = "qwen3-8b";
  require_input(base, "configs/models/" + model + "/config.json");
  TraceFiles t = read_trace(base, trace);
  if (!selected.is_null() &&
      positive_int(selected, "selected_turn", true).value() >= static_cast<std::int64_t>(t.rounds.size()))
    throw Error("selected_turn is outside trace");
  // The trace records: everything but the model's own sources (which the result lists first).
  const Data data = recompute_data(base, stored, model, t.records);
  Json sources = data.model_sources(model);
  const std::string env_model =
      member(member(t.environment, "config", "environment.json"), "model", "config").get<std::string>();
  const std::string revision = env_model.substr(env_model.rfind('/') + 1);
  if (std::none_of(sources.begin(), sources.end(), [&](const Json& r) {
        return r.value("url", "").find("/" + revision + "/") != std::string::npos;
      }))
    throw Error("Measured model revision differs from accounting config");
  const ModelDims dims = model_dims(data.model(model));
  const Int unit = Int(4) * dims.layers * dims.kv_heads * dims.head_dim;
  Json rows = Json::array();
  double previous_end = 0;
  for (std::size_t i = 0; i < t.rounds.size(); ++i) {
    const Json& r = t.rounds[i];
    const Int p = static_cast<std::int64_t>(member(r, "prompt_token_ids", "a round").size());
    const Int g = static_cast<std::int64_t>(member(r, "output_token_ids", "a round").size());
    const Int hit = positive_int(member(r, "cached_tokens", "a round"), "cached tokens", true);
    positive_int(p.value(), "prompt tokens");
    positive_int(g.value(), "output tokens");
    if (hit >= p) throw Error("Trace requires at least one uncached query for last-position head");
    if (member(r, "turn", "a round") != Json(i)) throw Error("Trace turn order is not contiguous");
    const double start = seconds(r, "model_start_s"), end = seconds(r, "model_end_s"),
                 tool_start = seconds(r, "tool_start_s"), tool_end = seconds(r, "tool_end_s");
    if (!(previous_end <= start && start < end && end <= tool_start && tool_start <= tool_end))
      throw Error("Trace is not a serial model/tool path");
    previous_end = tool_end;
    const Int cached = matrix_flops(dims, hit, p - hit), cold = matrix_flops(dims, 0, p);
    Int decode = 0;
    if (g > Int(1)) decode = (g - 1) * (matrix_flops(dims, p, 1) + matrix_flops(dims, p + g - 2, 1)) / 2;
    const double measured = end - start;
    const bool replaced = selected.is_null() || selected.get<std::int64_t>() == static_cast<std::int64_t>(i);
    const double replacement = replaced ? measured / speedup.get<double>() : measured;
    // A retention scenario, not a measurement of engine cache blocks.
    const Int retained = (p + g - 1) * unit;
    rows.push_back(Json{{"turn", i},
                        {"prompt_tokens", p.value()},
                        {"output_tokens", g.value()},
                        {"cached_tokens", hit.value()},
                        {"uncached_tokens", (p - hit).value()},
                        {"finish_reason", member(r, "finish_reason", "a round")},
                        {"tool", member(member(r, "action", "a round"), "tool", "action")},
                        {"measured_model_seconds", measured},
                        {"measured_tool_seconds", tool_end - tool_start},
                        {"replacement_model_seconds", replacement},
                        {"cached_prefill_matrix_flops", cached.value()},
                        {"cold_prefill_matrix_flops", cold.value()},
                        {"decode_matrix_flops", decode.value()},
                        {"retained_logical_kv_bytes", retained.value()},
                        {"hypothetical_tool_wait_kv_byte_seconds",
                         static_cast<double>(retained.value()) * (tool_end - tool_start)}});
  }
  auto int_sum = [&](const char* key) {
    Int total = 0;
    for (const auto& r : rows) total += r[key].get<std::int64_t>();
    return total.value();
  };
  auto float_sum = [&](const char* key) {
    std::vector<double> values;
    for (const auto& r : rows) values.push_back(r[key].get<double>());
    return py_sum(values);
  };
  const double elapsed = seconds(t.final, "elapsed_s");
  const double model_seconds = float_sum("measured_model_seconds"),
               tool_seconds = float_sum("measured_tool_seconds");
  const double other = elapsed - model_seconds - tool_seconds;
  if (elapsed < previous_end || other < 0) throw Error("Elapsed time cannot contain recorded serial stages");
  const double replacement = other + tool_seconds + float_sum("replacement_model_seconds");
  for (Json record : t.records) {
    record["url"] = "../" + record["file"].get<std::string>();
    sources.push_back(std::move(record));
  }
  Int max_kv = 0;
  for (const auto& r : rows) max_kv = max(max_kv, Int(r["retained_logical_kv_bytes"].get<std::int64_t>()));
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "measured-agent-trace-accounting";
  doc["model"] = model;
  doc["scenario"] = Json{{"trace", trace}, {"model_speedup", speedup}, {"selected_turn", selected}};
  doc["sources"] = sources;
  doc["agent_rounds"] = rows;
  doc["summary"] = Json{
      {"turns", rows.size()},
      {"input_tokens", int_sum("prompt_tokens")},
      {"cached_input_tokens", int_sum("cached_tokens")},
      {"uncached_input_tokens", int_sum("uncached_tokens")},
      {"output_tokens", int_sum("output_tokens")},
      {"cached_prefill_matrix_flops", int_sum("cached_prefill_matrix_flops")},
      {"cold_prefill_matrix_flops", int_sum("cold_prefill_matrix_flops")},
      {"decode_matrix_flops", int_sum("decode_matrix_flops")},
      {"measured_model_seconds", model_seconds},
      {"measured_tool_seconds", tool_seconds},
      {"measured_other_seconds", other},
      {"measured_elapsed_seconds", elapsed},
      {"counterfactual_elapsed_seconds", replacement},
      {"counterfactual_speedup", elapsed / replacement},
      {"hypothetical_tool_wait_kv_byte_seconds", float_sum("hypothetical_tool_wait_kv_byte_seconds")},
      {"maximum_round_logical_kv_bytes", max_kv.value()},
      {"evaluation_cases", member(t.checks, "cases", "independent-checks-v2.json")},
      {"value_and_input_passed", member(t.checks, "value_and_input_passed", "independent-checks-v2.json")},
      {"including_alias_check_passed", member(t.checks, "passed", "independent-checks-v2.json")},
      {"actual_cache_peak_bytes", nullptr}};
  doc["assumptions"] = Json::array({
      "Two serial Qwen3-8B agent traces, read as data and checked file by file against their sha256; "
      "prompt and output lengths are the recorded token ids, cache hits the engine's cached_tokens.",
      "Matrix FLOPs count valid causal positions and the last-position head; the cold prefix recomputes the "
      "same input. Measured seconds stay measured; the counterfactual replaces only the chosen model time.",
      "Tool-wait KV is a hypothetical retention of P + G - 1 BF16 slots over the recorded tool interval, not "
      "an engine measurement; the actual cache peak is left null.",
  });
  return doc;
}

}  // namespace bb::calc
