// Command table and argument handling shared by the CLI and the scenario runner (see command.hpp).
#include "calc/command.hpp"

#include <cmath>

#include "calc/budget.hpp"
#include "calc/collectives.hpp"
#include "calc/error.hpp"
#include "calc/forward.hpp"
#include "calc/hardware.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"
#include "calc/sequence.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

namespace {

std::string flag_name(const std::string& name) {
  std::string s = "--" + name;
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

Int json_int(const Json& v, const std::string& what) {
  switch (v.type()) {
    case Json::value_t::number_integer: return v.get<std::int64_t>();
    case Json::value_t::number_unsigned:
      if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) throw Error(what + " is too large");
      return static_cast<std::int64_t>(v.get<std::uint64_t>());
    case Json::value_t::number_float: {
      double d = v.get<double>();
      if (!std::isfinite(d)) throw Error(what + " must be finite");
      if (d != std::floor(d) || std::fabs(d) >= 9.2e18) throw Error(what + " must be a whole number");
      return static_cast<std::int64_t>(d);
    }
    case Json::value_t::string: return parse_exact_int(v.get<std::string>(), what);
    default: throw Error(what + " must be an integer, got " + v.dump());
  }
}

std::vector<Int> int_list(const Json& v, const std::string& what) {
  if (!v.is_array()) throw Error(what + " must be a JSON list of integers");
  std::vector<Int> out;
  for (const auto& x : v) out.push_back(json_int(x, what));
  return out;
}

ArgSpec integer(std::string name, std::string def, std::string help) {
  return {std::move(name), ArgKind::Integer, std::move(def), false, {}, std::move(help)};
}
ArgSpec number(std::string name, std::string def, std::string help) {
  return {std::move(name), ArgKind::Number, std::move(def), false, {}, std::move(help)};
}
ArgSpec text(std::string name, std::string def, std::string help) {
  return {std::move(name), ArgKind::Text, std::move(def), false, {}, std::move(help)};
}
ArgSpec choice(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
  return {std::move(name), ArgKind::Choice, std::move(def), false, std::move(choices), std::move(help)};
}
ArgSpec required(ArgSpec a) {
  a.default_value.reset();
  a.required = true;
  return a;
}
ArgSpec optional(ArgSpec a) {
  a.default_value.reset();
  return a;
}
ArgSpec flag(std::string name, std::string help) {
  return {std::move(name), ArgKind::Flag, {}, false, {}, std::move(help)};
}
ArgSpec file(std::string name, std::string help) {
  return {std::move(name), ArgKind::File, {}, false, {}, std::move(help)};
}

Json run_forward(const Data& data, const Args& a) {
  ModelDims d = model_dims(data.model(a.text("model")));
  ForwardScenario s;
  s.batch = a.integer("batch");
  s.history = a.integer("history");
  s.tokens = a.integer("tokens");
  s.output_head = a.text("output_head");
  s.score_bytes = a.integer("score_bytes");
  bool routing_given = a.given("routing") || a.given("routing_counts");
  if (routing_given && is_dense(d.adapter))
    throw Error("model " + d.id + " is dense (" + d.model_type +
                "): --routing and --routing-counts apply only to MoE models");
  std::optional<Routing> routing;
  if (!is_dense(d.adapter)) {
    Routing r;
    r.mode = a.text("routing");
    if (a.given("routing_counts")) {
      if (a.given("routing")) throw Error("give either --routing or --routing-counts, not both");
      Json counts = read_json_file(a.file("routing_counts"));
      if (counts.is_object() && counts.contains("counts")) counts = counts["counts"];
      r.mode = "counts";
      r.counts = int_list(counts, "routing counts");
      r.counts_file = a.file_label("routing_counts");
    }
    routing = r;
  }
  return forward_document(data, compute_forward(d, s, routing ? &*routing : nullptr));
}

Json run_roofline(const Data& data, const Args& a) {
  RooflineInput in;
  in.device = a.text("device");
  in.flops = a.integer("flops");
  in.traffic_bytes = a.integer("traffic_bytes");
  in.key.input_precision = a.text("precision");
  in.key.accumulator_precision = a.text("accumulator");
  in.key.execution_unit = a.text("unit");
  in.key.sparsity = a.text("sparsity");
  in.sparse_eligible = a.flag("sparse_eligible");
  in.compute_efficiency = a.number("compute_efficiency");
  in.bandwidth_efficiency = a.number("bandwidth_efficiency");
  return roofline_document(data, in);
}

Json run_state(const Data& data, const Args& a) {
  StateInput in;
  in.model = a.text("model");
  in.length = a.integer("length");
  in.batch = a.integer("batch");
  in.element_bytes = a.integer("element_bytes");
  in.recurrent_bytes = a.integer("recurrent_bytes");
  if (a.given("mla_path")) in.mla_path = a.text("mla_path");
  return state_document(data, in);
}

Json run_cache_sequence(const Data& data, const Args& a) {
  CacheSequenceInput in;
  in.model = a.text("model");
  in.batch = a.integer("batch");
  in.prompt = a.integer("prompt");
  in.steps = a.integer("steps");
  in.prefix_hit = a.integer("prefix_hit");
  in.element_bytes = a.integer("element_bytes");
  in.recurrent_bytes = a.integer("recurrent_bytes");
  return cache_sequence_document(data, in);
}

Json run_memory_concurrency(const Data& data, const Args& a) {
  MemoryConcurrencyInput in;
  in.model = a.text("model");
  in.length = a.integer("length");
  in.batch = a.integer("batch");
  in.transactions = a.integer("transactions");
  in.transaction_bytes = a.integer("transaction_bytes");
  in.latency_ns = a.number("latency_ns");
  in.bandwidth_bytes_per_second = a.number("bandwidth_bytes_per_second");
  in.active_transactions = a.optional_integer("active_transactions");
  in.service_interval_ns = a.optional_number("service_interval_ns");
  return memory_concurrency_document(data, in);
}

Json run_decode_budget(const Data& data, const Args& a) {
  DecodeBudgetInput in;
  in.batch = a.integer("batch");
  in.parameters = a.integer("parameters");
  in.weight_bits = a.integer("weight_bits");
  in.kv_history_bytes_per_request = a.integer("kv_history_bytes_per_request");
  in.kv_append_bytes_per_request = a.integer("kv_append_bytes_per_request");
  in.workspace_bytes = a.integer("workspace_bytes");
  in.metadata_bytes = a.integer("metadata_bytes");
  in.compute_multiplier = a.number("compute_multiplier");
  in.bandwidth_multiplier = a.number("bandwidth_multiplier");
  in.device = a.text("device");
  return decode_budget_document(data, in);
}

Json run_resource_basics(const Data&, const Args& a) {
  ResourceBasicsInput in;
  in.parameters = a.integer("parameters");
  in.weight_bits = a.integer("weight_bits");
  in.cards = a.integer("cards");
  in.card_capacity_bytes = a.integer("card_capacity_bytes");
  in.state_bytes_per_card = a.integer("state_bytes_per_card");
  in.workspace_bytes_per_card = a.integer("workspace_bytes_per_card");
  in.metadata_bytes_per_card = a.integer("metadata_bytes_per_card");
  in.link_bits_per_second = a.number("link_bits_per_second");
  in.messages = a.integer("messages");
  in.payload_bytes = a.optional_integer("payload_bytes");
  if (a.given("shard_parameters")) {
    in.shard_parameters = int_list(read_json_file(a.file("shard_parameters")), "shard-parameters");
    in.shard_file = a.file_label("shard_parameters");
  }
  in.startup_seconds = a.number("startup_seconds");
  in.link_efficiency = a.number("link_efficiency");
  return resource_basics_document(in);
}

CollectiveInput collective_input(const Args& a) {
  CollectiveInput in;
  in.model = a.text("model");
  in.batch = a.integer("batch");
  in.tokens = a.integer("tokens");
  in.participants = a.integer("participants");
  in.bandwidth_bytes_per_second = a.integer("bandwidth_bytes_per_second");
  in.startup_ns = a.integer("startup_ns");
  return in;
}

Json run_all_to_all(const Data& data, const Args& a) {
  AllToAllInput in;
  in.model = a.text("model");
  in.tokens_per_rank = a.integer("tokens_per_rank");
  in.participants = a.integer("participants");
  in.routing = a.text("routing");
  if (a.given("counts")) {
    Json rows = read_json_file(a.file("counts"));
    if (!rows.is_array()) throw Error("counts file must be a list of per-rank expert count lists");
    std::vector<std::vector<Int>> counts;
    for (const auto& row : rows) counts.push_back(int_list(row, "counts"));
    in.counts = counts;
    in.counts_file = a.file_label("counts");
    if (!a.given("routing")) in.routing = "counts";
  }
  return all_to_all_document(data, in);
}

std::vector<CommandSpec> build_specs() {
  const ArgSpec model = text("model", "qwen3-8b", "model id (a folder under calculations/configs/models)");
  const ArgSpec batch = integer("batch", "1", "requests in the batch (B)");
  std::vector<CommandSpec> v;
  v.push_back({"models",
               "List the model configs, their adapter and what can be computed for them",
               {},
               false,
               [](const Data& d, const Args&) { return models_document(d); }});
  v.push_back(
      {"forward",
       "One forward call: operator graph, weights, exact FLOPs and operand bytes",
       {model, batch, integer("history", "0", "tokens already in the KV cache (S)"),
        integer("tokens", "8192", "new tokens per request (T)"),
        choice("output_head", "last", {"last", "all", "none"}, "rows that go through lm_head"),
        integer("score_bytes", "4", "bytes per attention score element"),
        choice("routing", "balanced", {"balanced", "concentrated"}, "MoE expert histogram (MoE models only)"),
        file("routing_counts", "JSON list of per-expert counts for one layer (MoE models only)")},
       true,
       run_forward});
  v.push_back({"generate",
               "G single-token decode calls after a prefill (dense models)",
               {model, batch, integer("history", "8192", "prefill tokens before the first decode call (S)"),
                integer("steps", "1024", "decode calls (G)")},
               false,
               [](const Data& d, const Args& a) {
                 return generate_document(d, a.text("model"), a.integer("batch"), a.integer("history"),
                                          a.integer("steps"));
               }});
  v.push_back(
      {"state",
       "Resident KV state for a selected history",
       {required(text("model", "", "model id")), integer("length", "8192", "tokens of history"), batch,
        integer("element_bytes", "2", "bytes per K/V element"),
        integer("recurrent_bytes", "4", "bytes per recurrent-state element (hybrid models)"),
        optional(choice("mla_path", "", {"compact", "expanded"}, "MLA cache layout (MLA models only)"))},
       false,
       run_state});
  v.push_back({"cache-sequence",
               "KV reads, appends and attention work over a decode sequence, with prefix reuse",
               {model, batch, integer("prompt", "8192", "prompt tokens (P)"),
                integer("steps", "1024", "decode steps (G)"),
                integer("prefix_hit", "6144", "prompt tokens found in the prefix cache (C)"),
                integer("element_bytes", "2", "bytes per K/V element"),
                integer("recurrent_bytes", "4", "bytes per recurrent-state element (hybrid models)")},
               false,
               run_cache_sequence});
  v.push_back({"hardware",
               "The device catalog (peaks by precision, accumulator, unit and sparsity; memory; sources)",
               {flag("audit", "check the catalog's rules instead of printing it")},
               false,
               [](const Data& d, const Args& a) { return hardware_document(d, a.flag("audit")); }});
  v.push_back({"roofline",
               "Compute and memory service times of declared work on one device",
               {required(text("device", "", "device id from hardware.json")),
                required(integer("flops", "", "floating-point operations")),
                required(integer("traffic_bytes", "", "bytes across the memory interface")),
                text("precision", "BF16", "input precision of the peak"),
                text("accumulator", "FP32", "accumulator precision of the peak"),
                choice("unit", "tensor", {"tensor", "vector", "cube"}, "execution unit"),
                choice("sparsity", "dense", {"dense", "structured"}, "peak sparsity"),
                flag("sparse_eligible", "the work is 2:4 structured-sparse (required for structured peaks)"),
                number("compute_efficiency", "1.0", "fraction of peak compute, in (0, 1]"),
                number("bandwidth_efficiency", "1.0", "fraction of peak bandwidth, in (0, 1]")},
               false,
               run_roofline});
  v.push_back({"projection-bound",
               "Roofline bound of one layer's Q projection GEMM on a device",
               {model, required(text("device", "", "device id from hardware.json")), batch,
                integer("tokens", "1", "tokens per request")},
               false,
               [](const Data& d, const Args& a) {
                 return projection_bound_document(d, a.text("model"), a.text("device"), a.integer("batch"),
                                                  a.integer("tokens"));
               }});
  v.push_back(
      {"resource-basics",
       "Packed weights per card, capacity headroom and a link transfer time",
       {integer("parameters", "7e10", "parameter count"), integer("weight_bits", "16", "bits per weight"),
        integer("cards", "2", "cards the weights are split over"),
        integer("card_capacity_bytes", "8e10", "nominal capacity per card"),
        integer("state_bytes_per_card", "0", "KV or other state per card"),
        integer("workspace_bytes_per_card", "0", "workspace per card"),
        integer("metadata_bytes_per_card", "0", "scales and other metadata per card"),
        number("link_bits_per_second", "4e11", "link rate in bits per second"),
        integer("messages", "1", "messages (each pays the startup time)"),
        optional(integer("payload_bytes", "", "bytes to transfer (default: all packed weights)")),
        file("shard_parameters", "JSON list of parameters per card"),
        number("startup_seconds", "3e-6", "startup time per message"),
        number("link_efficiency", "1.0", "fraction of the link rate achieved, in (0, 1]")},
       false,
       run_resource_basics});
  v.push_back(
      {"memory-concurrency",
       "Bandwidth reachable with a given number of transactions in flight (Little's law)",
       {model, integer("length", "8192", "tokens of KV history read"), batch,
        integer("transactions", "128", "transactions in flight"),
        integer("transaction_bytes", "128", "bytes per transaction"),
        number("latency_ns", "500", "latency per transaction in ns"),
        number("bandwidth_bytes_per_second", "1e12", "interface bandwidth"),
        optional(integer("active_transactions", "", "override of the transactions actually in flight")),
        optional(number("service_interval_ns", "", "minimum interval between transactions in ns"))},
       false,
       run_memory_concurrency});
  v.push_back({"decode-budget",
               "Nominal decode-step budget of an N-parameter model on one device",
               {batch, integer("parameters", "7e10", "nominal parameter count N"),
                integer("weight_bits", "8", "bits per weight: 4, 8 or 16"),
                integer("kv_history_bytes_per_request", "0", "KV history read per request"),
                integer("kv_append_bytes_per_request", "0", "KV append per request"),
                integer("workspace_bytes", "0", "workspace and runtime reservation"),
                integer("metadata_bytes", "0", "scales and other shared metadata"),
                number("compute_multiplier", "1.0", "hypothetical scale of the peak compute"),
                number("bandwidth_multiplier", "1.0", "hypothetical scale of the bandwidth"),
                text("device", "h100-sxm", "device id from hardware.json")},
               false,
               run_decode_budget});
  const std::vector<ArgSpec> collective = {
      model,
      batch,
      integer("tokens", "1", "tokens per request"),
      integer("participants", "8", "tensor-parallel ranks (p)"),
      integer("bandwidth_bytes_per_second", "50e9", "one-direction link bandwidth"),
      integer("startup_ns", "2000", "startup time per round in ns")};
  v.push_back({"ring-collective", "Ring all-reduce of a tensor-parallel activation: schedule, bytes, time",
               collective, false, [](const Data& d, const Args& a) {
                 return ring_collective_document(d, collective_input(a));
               }});
  v.push_back({"tree-collective", "Binomial-tree all-reduce of the same activation: schedule, bytes, time",
               collective, false, [](const Data& d, const Args& a) {
                 return tree_collective_document(d, collective_input(a));
               }});
  v.push_back({"all-to-all",
               "MoE dispatch and combine payloads between expert-parallel ranks",
               {text("model", "qwen3-235b-a22b", "MoE model id"),
                integer("tokens_per_rank", "64", "tokens held by each rank"),
                integer("participants", "8", "expert-parallel ranks"),
                choice("routing", "balanced", {"balanced", "hotspot", "counts"}, "expert histogram"),
                file("counts", "JSON list (one per rank) of per-expert assignment counts")},
               false,
               run_all_to_all});
  return v;
}

}  // namespace

Args::Args(const CommandSpec& spec, Json values, fs::path base_dir)
    : command_(spec), values_(std::move(values)), base_dir_(std::move(base_dir)) {
  if (values_.is_null()) values_ = Json::object();
  if (!values_.is_object()) throw Error("arguments of " + spec.name + " must be an object");
  for (const auto& [key, v] : values_.items()) {
    bool known = false;
    for (const auto& a : spec.args) known = known || a.name == key;
    if (!known) {
      std::string names;
      for (const auto& a : spec.args) names += (names.empty() ? "" : ", ") + a.name;
      throw Error("unknown argument '" + key + "' for " + spec.name +
                  (names.empty() ? "" : " (known: " + names + ")"));
    }
  }
  for (const auto& a : spec.args)
    if (a.required && !given(a.name)) throw Error(spec.name + " needs " + flag_name(a.name));
}

const ArgSpec& Args::spec(std::string_view name) const {
  for (const auto& a : command_.args)
    if (a.name == name) return a;
  throw Error("internal: " + command_.name + " has no argument " + std::string(name));
}

bool Args::given(std::string_view name) const {
  auto it = values_.find(std::string(name));
  return it != values_.end() && !it->is_null();
}

std::optional<Json> Args::raw(std::string_view name) const {
  if (given(name)) return values_.at(std::string(name));
  const ArgSpec& s = spec(name);
  if (s.default_value) return Json(*s.default_value);
  return std::nullopt;
}

Int Args::integer(std::string_view name) const {
  auto v = raw(name);
  if (!v) throw Error(command_.name + " needs " + flag_name(std::string(name)));
  return json_int(*v, flag_name(std::string(name)));
}

std::optional<Int> Args::optional_integer(std::string_view name) const {
  if (!given(name)) return std::nullopt;
  return integer(name);
}

double Args::number(std::string_view name) const {
  auto v = raw(name);
  std::string what = flag_name(std::string(name));
  if (!v) throw Error(command_.name + " needs " + what);
  if (v->is_string()) return parse_finite_double(v->get<std::string>(), what);
  if (v->is_number()) {
    double d = v->get<double>();
    if (!std::isfinite(d)) throw Error(what + " must be finite");
    return d;
  }
  throw Error(what + " must be a number, got " + v->dump());
}

std::optional<double> Args::optional_number(std::string_view name) const {
  if (!given(name)) return std::nullopt;
  return number(name);
}

std::string Args::text(std::string_view name) const {
  auto v = raw(name);
  std::string what = flag_name(std::string(name));
  if (!v) throw Error(command_.name + " needs " + what);
  if (!v->is_string()) throw Error(what + " must be a string, got " + v->dump());
  std::string s = v->get<std::string>();
  const ArgSpec& a = spec(name);
  if (a.kind == ArgKind::Choice) {
    bool ok = false;
    std::string list;
    for (const auto& c : a.choices) {
      ok = ok || c == s;
      list += (list.empty() ? "" : ", ") + c;
    }
    if (!ok) throw Error(what + " must be one of " + list + ", got '" + s + "'");
  }
  if (s.empty()) throw Error(what + " must not be empty");
  return s;
}

bool Args::flag(std::string_view name) const {
  if (!given(name)) return false;
  const Json& v = values_.at(std::string(name));
  if (v.is_boolean()) return v.get<bool>();
  throw Error(flag_name(std::string(name)) + " is a flag (true or false)");
}

fs::path Args::file(std::string_view name) const {
  if (!given(name)) return {};
  fs::path p = text(name);
  return p.is_absolute() ? p : base_dir_ / p;
}

std::string Args::file_label(std::string_view name) const {
  return given(name) ? text(name) : std::string();
}

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = build_specs();
  return specs;
}

const CommandSpec& command_spec(std::string_view name) {
  std::string names;
  for (const auto& c : command_specs()) {
    if (c.name == name) return c;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  throw Error("unknown calc command '" + std::string(name) + "' (known: " + names + ")");
}

Json run_command(const Data& data, std::string_view command, const Json& values, const fs::path& base_dir) {
  const CommandSpec& spec = command_spec(command);
  Args args(spec, values, base_dir);
  return spec.run(data, args);
}

}  // namespace bb::calc
