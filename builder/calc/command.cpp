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
#include "text/suggest.hpp"

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

// One argument, declared once: its spec (name, kind, default, help) and the field of the command's input
// it fills — a member pointer, or a function returning the field for nested ones. An argument with no
// field (a file to read, a choice that depends on the model) is read by the command's own step.
template <class In>
struct Bound {
  ArgSpec spec;
  std::function<void(const Args&, In&)> fill;

  Bound(ArgSpec s) : spec(std::move(s)) {}  // NOLINT: an argument the command reads itself
  template <class Field>
  Bound(ArgSpec s, Field field) : spec(std::move(s)) {
    fill = [name = spec.name, field](const Args& a, In& in) { read(a, name, std::invoke(field, in)); };
  }

 private:
  static void read(const Args& a, const std::string& n, Int& v) { v = a.integer(n); }
  static void read(const Args& a, const std::string& n, double& v) { v = a.number(n); }
  static void read(const Args& a, const std::string& n, std::string& v) { v = a.text(n); }
  static void read(const Args& a, const std::string& n, bool& v) { v = a.flag(n); }
  static void read(const Args& a, const std::string& n, std::optional<Int>& v) { v = a.optional_integer(n); }
  static void read(const Args& a, const std::string& n, std::optional<double>& v) {
    v = a.optional_number(n);
  }
  static void read(const Args& a, const std::string& n, std::optional<std::string>& v) {
    if (a.given(n)) v = a.text(n);
  }
};

// A command whose arguments fill an `In` before `run` gets it (with the arguments, for those it reads
// itself).
template <class In>
CommandSpec command(std::string name, std::string summary, std::vector<Bound<In>> args,
                    std::function<Json(const Data&, In&, const Args&)> run, bool has_operators = false) {
  CommandSpec c{std::move(name), std::move(summary), {}, has_operators, nullptr};
  std::vector<std::function<void(const Args&, In&)>> fills;
  for (auto& b : args) {
    c.args.push_back(std::move(b.spec));
    if (b.fill) fills.push_back(std::move(b.fill));
  }
  c.run = [fills = std::move(fills), run = std::move(run)](const Data& d, const Args& a) {
    In in;
    for (const auto& fill : fills) fill(a, in);
    return run(d, in, a);
  };
  return c;
}

// The inputs of the commands whose document functions take loose values or no model.
struct ForwardCall : ForwardScenario {
  std::string model;
};
struct GenerateCall {
  std::string model;
  Int batch, history, steps;
};
struct ProjectionCall {
  std::string model, device;
  Int batch, tokens;
};
struct HardwareCall {
  bool audit = false;
};
struct NoInput {};

Json run_forward(const Data& data, ForwardCall& in, const Args& a) {
  ModelDims d = model_dims(data.model(in.model));
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
  return forward_document(data, compute_forward(d, in, routing ? &*routing : nullptr));
}

Json run_resource_basics(const Data&, ResourceBasicsInput& in, const Args& a) {
  if (a.given("shard_parameters")) {
    in.shard_parameters = int_list(read_json_file(a.file("shard_parameters")), "shard-parameters");
    in.shard_file = a.file_label("shard_parameters");
  }
  return resource_basics_document(in);
}

Json run_all_to_all(const Data& data, AllToAllInput& in, const Args& a) {
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

// A document function of (data, input) as a command's run step.
template <class In>
std::function<Json(const Data&, In&, const Args&)> document(Json (*f)(const Data&, const In&)) {
  return [f](const Data& d, In& in, const Args&) { return f(d, in); };
}

std::vector<CommandSpec> build_specs() {
  const ArgSpec model = text("model", "qwen3-8b", "model id (a folder under calculations/configs/models)");
  const ArgSpec batch = integer("batch", "1", "requests in the batch (B)");
  const ArgSpec element_bytes = integer("element_bytes", "2", "bytes per K/V element");
  const ArgSpec recurrent_bytes =
      integer("recurrent_bytes", "4", "bytes per recurrent-state element (hybrid models)");
  const ArgSpec device = required(text("device", "", "device id from hardware.json"));
  std::vector<CommandSpec> v;
  v.push_back(command<NoInput>("models",
                               "List the model configs, their adapter and what can be computed for them", {},
                               [](const Data& d, NoInput&, const Args&) { return models_document(d); }));
  v.push_back(command<ForwardCall>(
      "forward", "One forward call: operator graph, weights, exact FLOPs and operand bytes",
      {{model, &ForwardCall::model},
       {batch, &ForwardCall::batch},
       {integer("history", "0", "tokens already in the KV cache (S)"), &ForwardCall::history},
       {integer("tokens", "8192", "new tokens per request (T)"), &ForwardCall::tokens},
       {choice("output_head", "last", {"last", "all", "none"}, "rows that go through lm_head"),
        &ForwardCall::output_head},
       {integer("score_bytes", "4", "bytes per attention score element"), &ForwardCall::score_bytes},
       choice("routing", "balanced", {"balanced", "concentrated"}, "MoE expert histogram (MoE models only)"),
       file("routing_counts", "JSON list of per-expert counts for one layer (MoE models only)")},
      run_forward, true));
  v.push_back(
      command<GenerateCall>("generate", "G single-token decode calls after a prefill (dense models)",
                            {{model, &GenerateCall::model},
                             {batch, &GenerateCall::batch},
                             {integer("history", "8192", "prefill tokens before the first decode call (S)"),
                              &GenerateCall::history},
                             {integer("steps", "1024", "decode calls (G)"), &GenerateCall::steps}},
                            [](const Data& d, GenerateCall& in, const Args&) {
                              return generate_document(d, in.model, in.batch, in.history, in.steps);
                            }));
  v.push_back(command<StateInput>(
      "state", "Resident KV state for a selected history",
      {{required(text("model", "", "model id")), &StateInput::model},
       {integer("length", "8192", "tokens of history"), &StateInput::length},
       {batch, &StateInput::batch},
       {element_bytes, &StateInput::element_bytes},
       {recurrent_bytes, &StateInput::recurrent_bytes},
       {optional(choice("mla_path", "", {"compact", "expanded"}, "MLA cache layout (MLA models only)")),
        &StateInput::mla_path}},
      document(state_document)));
  v.push_back(command<CacheSequenceInput>(
      "cache-sequence", "KV reads, appends and attention work over a decode sequence, with prefix reuse",
      {{model, &CacheSequenceInput::model},
       {batch, &CacheSequenceInput::batch},
       {integer("prompt", "8192", "prompt tokens (P)"), &CacheSequenceInput::prompt},
       {integer("steps", "1024", "decode steps (G)"), &CacheSequenceInput::steps},
       {integer("prefix_hit", "6144", "prompt tokens found in the prefix cache (C)"),
        &CacheSequenceInput::prefix_hit},
       {element_bytes, &CacheSequenceInput::element_bytes},
       {recurrent_bytes, &CacheSequenceInput::recurrent_bytes}},
      document(cache_sequence_document)));
  v.push_back(command<HardwareCall>(
      "hardware", "The device catalog (peaks by precision, accumulator, unit and sparsity; memory; sources)",
      {{flag("audit", "check the catalog's rules instead of printing it"), &HardwareCall::audit}},
      [](const Data& d, HardwareCall& in, const Args&) { return hardware_document(d, in.audit); }));
  using Peak = RooflineInput;
  v.push_back(command<RooflineInput>(
      "roofline", "Compute and memory service times of declared work on one device",
      {{device, &Peak::device},
       {required(integer("flops", "", "floating-point operations")), &Peak::flops},
       {required(integer("traffic_bytes", "", "bytes across the memory interface")), &Peak::traffic_bytes},
       {text("precision", "BF16", "input precision of the peak"),
        [](Peak& in) -> std::string& { return in.key.input_precision; }},
       {text("accumulator", "FP32", "accumulator precision of the peak"),
        [](Peak& in) -> std::string& { return in.key.accumulator_precision; }},
       {choice("unit", "tensor", {"tensor", "vector", "cube"}, "execution unit"),
        [](Peak& in) -> std::string& { return in.key.execution_unit; }},
       {choice("sparsity", "dense", {"dense", "structured"}, "peak sparsity"),
        [](Peak& in) -> std::string& { return in.key.sparsity; }},
       {flag("sparse_eligible", "the work is 2:4 structured-sparse (required for structured peaks)"),
        &Peak::sparse_eligible},
       {number("compute_efficiency", "1.0", "fraction of peak compute, in (0, 1]"),
        &Peak::compute_efficiency},
       {number("bandwidth_efficiency", "1.0", "fraction of peak bandwidth, in (0, 1]"),
        &Peak::bandwidth_efficiency}},
      document(roofline_document)));
  v.push_back(command<ProjectionCall>(
      "projection-bound", "Roofline bound of one layer's Q projection GEMM on a device",
      {{model, &ProjectionCall::model},
       {device, &ProjectionCall::device},
       {batch, &ProjectionCall::batch},
       {integer("tokens", "1", "tokens per request"), &ProjectionCall::tokens}},
      [](const Data& d, ProjectionCall& in, const Args&) {
        return projection_bound_document(d, in.model, in.device, in.batch, in.tokens);
      }));
  using Basics = ResourceBasicsInput;
  v.push_back(command<Basics>(
      "resource-basics", "Packed weights per card, capacity headroom and a link transfer time",
      {{integer("parameters", "7e10", "parameter count"), &Basics::parameters},
       {integer("weight_bits", "16", "bits per weight"), &Basics::weight_bits},
       {integer("cards", "2", "cards the weights are split over"), &Basics::cards},
       {integer("card_capacity_bytes", "8e10", "nominal capacity per card"), &Basics::card_capacity_bytes},
       {integer("state_bytes_per_card", "0", "KV or other state per card"), &Basics::state_bytes_per_card},
       {integer("workspace_bytes_per_card", "0", "workspace per card"), &Basics::workspace_bytes_per_card},
       {integer("metadata_bytes_per_card", "0", "scales and other metadata per card"),
        &Basics::metadata_bytes_per_card},
       {number("link_bits_per_second", "4e11", "link rate in bits per second"),
        &Basics::link_bits_per_second},
       {integer("messages", "1", "messages (each pays the startup time)"), &Basics::messages},
       {optional(integer("payload_bytes", "", "bytes to transfer (default: all packed weights)")),
        &Basics::payload_bytes},
       file("shard_parameters", "JSON list of parameters per card"),
       {number("startup_seconds", "3e-6", "startup time per message"), &Basics::startup_seconds},
       {number("link_efficiency", "1.0", "fraction of the link rate achieved, in (0, 1]"),
        &Basics::link_efficiency}},
      run_resource_basics));
  using Memory = MemoryConcurrencyInput;
  v.push_back(command<Memory>(
      "memory-concurrency",
      "Bandwidth reachable with a given number of transactions in flight (Little's law)",
      {{model, &Memory::model},
       {integer("length", "8192", "tokens of KV history read"), &Memory::length},
       {batch, &Memory::batch},
       {integer("transactions", "128", "transactions in flight"), &Memory::transactions},
       {integer("transaction_bytes", "128", "bytes per transaction"), &Memory::transaction_bytes},
       {number("latency_ns", "500", "latency per transaction in ns"), &Memory::latency_ns},
       {number("bandwidth_bytes_per_second", "1e12", "interface bandwidth"),
        &Memory::bandwidth_bytes_per_second},
       {optional(integer("active_transactions", "", "override of the transactions actually in flight")),
        &Memory::active_transactions},
       {optional(number("service_interval_ns", "", "minimum interval between transactions in ns")),
        &Memory::service_interval_ns}},
      document(memory_concurrency_document)));
  using Budget = DecodeBudgetInput;
  v.push_back(command<Budget>(
      "decode-budget", "Nominal decode-step budget of an N-parameter model on one device",
      {{batch, &Budget::batch},
       {integer("parameters", "7e10", "nominal parameter count N"), &Budget::parameters},
       {integer("weight_bits", "8", "bits per weight: 4, 8 or 16"), &Budget::weight_bits},
       {integer("kv_history_bytes_per_request", "0", "KV history read per request"),
        &Budget::kv_history_bytes_per_request},
       {integer("kv_append_bytes_per_request", "0", "KV append per request"),
        &Budget::kv_append_bytes_per_request},
       {integer("workspace_bytes", "0", "workspace and runtime reservation"), &Budget::workspace_bytes},
       {integer("metadata_bytes", "0", "scales and other shared metadata"), &Budget::metadata_bytes},
       {number("compute_multiplier", "1.0", "hypothetical scale of the peak compute"),
        &Budget::compute_multiplier},
       {number("bandwidth_multiplier", "1.0", "hypothetical scale of the bandwidth"),
        &Budget::bandwidth_multiplier},
       {text("device", "h100-sxm", "device id from hardware.json"), &Budget::device}},
      document(decode_budget_document)));
  using Collective = CollectiveInput;
  const std::vector<Bound<Collective>> collective = {
      {model, &Collective::model},
      {batch, &Collective::batch},
      {integer("tokens", "1", "tokens per request"), &Collective::tokens},
      {integer("participants", "8", "tensor-parallel ranks (p)"), &Collective::participants},
      {integer("bandwidth_bytes_per_second", "50e9", "one-direction link bandwidth"),
       &Collective::bandwidth_bytes_per_second},
      {integer("startup_ns", "2000", "startup time per round in ns"), &Collective::startup_ns}};
  v.push_back(command<Collective>("ring-collective",
                                  "Ring all-reduce of a tensor-parallel activation: schedule, bytes, time",
                                  collective, document(ring_collective_document)));
  v.push_back(command<Collective>("tree-collective",
                                  "Binomial-tree all-reduce of the same activation: schedule, bytes, time",
                                  collective, document(tree_collective_document)));
  v.push_back(command<AllToAllInput>(
      "all-to-all", "MoE dispatch and combine payloads between expert-parallel ranks",
      {{text("model", "qwen3-235b-a22b", "MoE model id"), &AllToAllInput::model},
       {integer("tokens_per_rank", "64", "tokens held by each rank"), &AllToAllInput::tokens_per_rank},
       {integer("participants", "8", "expert-parallel ranks"), &AllToAllInput::participants},
       {choice("routing", "balanced", {"balanced", "hotspot", "counts"}, "expert histogram"),
        &AllToAllInput::routing},
       file("counts", "JSON list (one per rank) of per-expert assignment counts")},
      run_all_to_all));
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
      std::vector<std::string> list;
      for (const auto& a : spec.args) {
        names += (names.empty() ? "" : ", ") + a.name;
        list.push_back(a.name);
      }
      throw Error("unknown argument '" + key + "' for " + spec.name + text::did_you_mean(key, list) +
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
  std::vector<std::string> list;
  for (const auto& c : command_specs()) {
    if (c.name == name) return c;
    names += (names.empty() ? "" : ", ") + c.name;
    list.push_back(c.name);
  }
  throw Error("unknown calc command '" + std::string(name) + "'" + text::did_you_mean(name, list) +
              " (known: " + names + ")");
}

Json run_command(const Data& data, std::string_view command, const Json& values, const fs::path& base_dir) {
  const CommandSpec& spec = command_spec(command);
  Args args(spec, values, base_dir);
  return spec.run(data, args);
}

}  // namespace bb::calc
