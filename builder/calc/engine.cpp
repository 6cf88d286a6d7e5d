// Expression evaluation with a per-engine result cache (see engine.hpp).
#include "calc/engine.hpp"

#include <algorithm>
#include <cctype>

#include "calc/address.hpp"
#include "calc/command.hpp"
#include "calc/error.hpp"
#include "calc/formula.hpp"
#include "calc/pynum.hpp"
#include "calc/trim.hpp"

namespace bb::calc {
namespace {

std::string keys_of(const Json& obj) {
  std::string s;
  for (const auto& [k, v] : obj.items()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

std::int64_t json_int_checked(const Json& v) {
  if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) throw Error("integer too large");
  return static_cast<std::int64_t>(v.get<std::uint64_t>());
}

Value to_value(const Json& v, const std::string& path) {
  Value out;
  out.path = path;
  switch (v.type()) {
    case Json::value_t::number_integer:
      out.kind = Value::Kind::Integer;
      out.integer = v.get<std::int64_t>();
      break;
    case Json::value_t::number_unsigned:
      out.kind = Value::Kind::Integer;
      out.integer = json_int_checked(v);
      break;
    case Json::value_t::number_float:
      out.kind = Value::Kind::Float;
      out.number = v.get<double>();
      break;
    case Json::value_t::boolean:
      out.kind = Value::Kind::Boolean;
      out.boolean = v.get<bool>();
      break;
    case Json::value_t::string:
      out.kind = Value::Kind::String;
      out.text = v.get<std::string>();
      break;
    case Json::value_t::null: out.kind = Value::Kind::Null; break;
    default:
      throw Error(path + " is " + (v.is_object() ? "an object with fields: " + keys_of(v) : "a list") +
                  "; name a single value");
  }
  return out;
}

}  // namespace

std::string Value::to_string() const {
  switch (kind) {
    case Kind::Integer: return std::to_string(integer);
    case Kind::Float: return py_repr(number);
    case Kind::Boolean: return boolean ? "true" : "false";
    case Kind::String: return text;
    case Kind::Null: return "null";
  }
  return "";
}

Engine::Engine(std::filesystem::path calculations_dir) : data_(std::move(calculations_dir)) {
  scenarios_ = load_scenarios(data_);
}

const Json& Engine::scenario_result(std::string_view id) {
  std::string key = "scenario:" + std::string(id);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const Scenario* s = nullptr;
  for (const auto& row : scenarios_)
    if (row.id == id) s = &row;
  if (!s) throw Error("unknown scenario '" + std::string(id) + "' (not in scenarios/book.json)");
  if (std::find(running_.begin(), running_.end(), s->id) != running_.end()) {
    std::string chain;
    for (auto it = std::find(running_.begin(), running_.end(), s->id); it != running_.end(); ++it)
      chain += *it + " -> ";
    throw Error("scenario arguments form a cycle: " + chain + s->id);
  }
  running_.push_back(s->id);
  Json args = s->args;
  try {
    // Arguments given by reference are computed first, so a changed input flows into this scenario.
    for (auto& [name, value] : args.items())
      if (is_formula(value))
        value = evaluate_formula(value.get<std::string>(),
                                 [this](const std::string& ref) { return Json(lookup(ref).first); });
  } catch (const Error& e) {
    running_.pop_back();
    throw Error("scenario '" + s->id + "': " + e.what());
  }
  running_.pop_back();
  Json doc = run_scenario(data_, Scenario{s->id, s->command, args, s->line, s->arg_at});
  ++computations_;
  return cache_.emplace(key, std::move(doc)).first->second;
}

const Json& Engine::inline_result(std::string_view call, std::string& canonical) {
  auto open = call.find('(');
  auto close = call.rfind(')');
  std::string name = trim(call.substr(0, open));
  std::replace(name.begin(), name.end(), '_', '-');
  command_spec(name);
  std::vector<std::pair<std::string, std::string>> args;
  std::string inner(call.substr(open + 1, close - open - 1));
  size_t pos = 0;
  while (pos <= inner.size()) {
    size_t comma = inner.find(',', pos);
    std::string part = trim(inner.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (!part.empty()) {
      auto eq = part.find('=');
      if (eq == std::string::npos) throw Error("inline call argument '" + part + "' must be name=value");
      std::string key = trim(part.substr(0, eq)), value = trim(part.substr(eq + 1));
      std::replace(key.begin(), key.end(), '-', '_');
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
          value.back() == value.front())
        value = value.substr(1, value.size() - 2);
      args.emplace_back(key, value);
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::sort(args.begin(), args.end());
  Json values = Json::object();
  canonical = name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (values.contains(args[i].first)) throw Error("inline call repeats argument '" + args[i].first + "'");
    values[args[i].first] = args[i].second == "true" ? Json(true) : Json(args[i].second);
    canonical += (i ? ", " : "") + args[i].first + "=" + args[i].second;
  }
  canonical += ")";
  std::string key = "call:" + canonical;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  Json doc = run_command(data_, name, values, data_.root());
  ++computations_;
  return cache_.emplace(key, std::move(doc)).first->second;
}

std::pair<const Json&, std::string> Engine::lookup(std::string_view expr_view) {
  std::string expr = trim(expr_view);
  if (expr.empty()) throw Error("empty calc expression");
  const Json* root = nullptr;
  std::string prefix, rest;
  auto open = expr.find('(');
  auto dot = expr.find('.');
  if (open != std::string::npos && (dot == std::string::npos || open < dot)) {
    auto close = expr.find(')', open);
    if (close == std::string::npos) throw Error("missing ')'");
    std::string name = trim(expr.substr(0, open));
    std::string inner = trim(expr.substr(open + 1, close - open - 1));
    rest = expr.substr(close + 1);
    // Catalogue facts: model(<id>) is the model's config.json, hardware(<id>) the device's record.
    if (name == "model" || (name == "hardware" && !inner.empty() && inner.find('=') == std::string::npos)) {
      root = name == "model" ? &data_.model(inner).config : &data_.device(inner);
      prefix = name + "(" + inner + ")";
    } else {
      root = &inline_result(std::string_view(expr).substr(0, close + 1), prefix);
    }
    if (rest.empty() || rest[0] != '.')
      throw Error("name a field after " + prefix + ", e.g. " +
                  (name == "model"      ? "model(qwen3-8b).num_hidden_layers"
                   : name == "hardware" ? "hardware(h100-sxm).peak(BF16, FP32, tensor, dense)"
                                        : prefix + ".summary.matrix_flops"));
    rest = rest.substr(1);
  } else {
    if (dot == std::string::npos)
      throw Error("expected scenario-id.field (e.g. qwen3-8b-prefill-8192.matrix_flops)");
    prefix = expr.substr(0, dot);
    root = &scenario_result(prefix);
    rest = expr.substr(dot + 1);
  }
  std::string canonical;
  const Json& v = follow_address(*root, split_address(rest), prefix, canonical);
  return {v, canonical};
}

Value Engine::evaluate(std::string_view expr) {
  try {
    // A formula (`=a.x * b.y`) derives a number from results and facts the way scenario arguments do,
    // so a size the text states as a product ("1024 × 4096") is tied to its factors, not typed.
    if (std::string e = trim(expr); is_formula(Json(e)))
      return to_value(evaluate_formula(e, [this](const std::string& ref) { return Json(lookup(ref).first); }),
                      e);
    auto [json, canonical] = lookup(expr);
    return to_value(json, canonical);
  } catch (const Error& e) {
    throw Error("calc expression '" + trim(expr) + "': " + e.what());
  }
}

}  // namespace bb::calc
