// Expression evaluation with a per-engine result cache (see engine.hpp).
#include "calc/engine.hpp"

#include <algorithm>
#include <cctype>

#include "calc/command.hpp"
#include "calc/error.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {
namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split_path(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

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

// Walks `segments` from `root`. Lists accept an index or the `name` (or `id`) of an item.
Value walk(const Json& root, const std::vector<std::string>& segments, std::string prefix) {
  const Json* cur = &root;
  std::string path = prefix;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    if (seg.empty()) throw Error("empty field name in '" + prefix + "'");
    if (cur->is_object()) {
      auto it = cur->find(seg);
      if (it == cur->end()) {
        // The summary is implied when the first field is not at the top level.
        if (i == 0 && cur->contains("summary") && (*cur)["summary"].contains(seg)) {
          cur = &(*cur)["summary"];
          path += ".summary";
          --i;
          continue;
        }
        throw Error(path + " has no field '" + seg + "' (fields: " + keys_of(*cur) + ")");
      }
      cur = &*it;
    } else if (cur->is_array()) {
      const Json* found = nullptr;
      if (!seg.empty() && std::all_of(seg.begin(), seg.end(), ::isdigit)) {
        size_t idx = std::stoul(seg);
        if (idx < cur->size()) found = &(*cur)[idx];
      } else {
        for (const auto& item : *cur)
          if (item.is_object() && (item.value("name", Json()) == seg || item.value("id", Json()) == seg)) {
            found = &item;
            break;
          }
      }
      if (!found) throw Error(path + " has no item '" + seg + "'");
      cur = found;
    } else {
      throw Error(path + " is a single value; it has no field '" + seg + "'");
    }
    path += "." + seg;
  }
  return to_value(*cur, path);
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
  for (const auto& s : scenarios_)
    if (s.id == id) {
      Json doc = run_scenario(data_, s);
      ++computations_;
      return cache_.emplace(key, std::move(doc)).first->second;
    }
  throw Error("unknown scenario '" + std::string(id) + "' (not in scenarios/book.json)");
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

Value Engine::evaluate(std::string_view expr_view) {
  std::string expr = trim(expr_view);
  if (expr.empty()) throw Error("empty calc expression");
  try {
    if (auto open = expr.find('('); open != std::string::npos) {
      auto close = expr.find(')', open);
      if (close == std::string::npos) throw Error("missing ')'");
      std::string canonical;
      const Json& doc = inline_result(std::string_view(expr).substr(0, close + 1), canonical);
      std::string rest = expr.substr(close + 1);
      if (rest.empty() || rest[0] != '.')
        throw Error("name a field after the call, e.g. ).summary.matrix_flops");
      return walk(doc, split_path(rest.substr(1)), canonical);
    }
    auto dot = expr.find('.');
    if (dot == std::string::npos)
      throw Error("expected scenario-id.field (e.g. qwen3-8b-prefill-8192.matrix_flops)");
    std::string id = expr.substr(0, dot);
    return walk(scenario_result(id), split_path(expr.substr(dot + 1)), id);
  } catch (const Error& e) {
    throw Error("calc expression '" + expr + "': " + e.what());
  }
}

}  // namespace bb::calc
