// Loading and running the book's scenarios (see scenarios.hpp).
#include "calc/scenarios.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <tuple>

#include "calc/command.hpp"
#include "calc/error.hpp"
#include "calc/formula.hpp"
#include "calc/json.hpp"
#include "calc/scenario_file.hpp"
#include "inputs/file_io.hpp"

namespace bb::calc {
namespace {

std::pair<int, int> line_col(const std::string& text, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  return {line, col};
}

// The first `"id"\s*:\s*"<id>"` in the text (\s: space, tab, line feed, vertical tab, form feed,
// carriage return), found without a regular expression: std::regex tried every position of the file
// for every scenario, ~0.2 s of CPU per load of this book's 174 scenarios, paid by every command that
// evaluates numbers (the ids are checked to be plain before).
size_t find_id(const std::string& text, const std::string& id) {
  auto space = [&](size_t i) {
    while (i < text.size() && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) ++i;
    return i;
  };
  const std::string quoted = "\"" + id + "\"";
  for (size_t at = text.find("\"id\""); at != std::string::npos; at = text.find("\"id\"", at + 1)) {
    size_t i = space(at + 4);
    if (i >= text.size() || text[i] != ':') continue;
    i = space(i + 1);
    if (text.compare(i, quoted.size(), quoted) == 0) return at;
  }
  return std::string::npos;
}

// Where each row's id and arguments are written: the JSON library keeps no positions, so the raw text
// is searched from the row's `"id": "<id>"` onwards (ids are unique and plain).
void locate(const std::string& text, Scenario& s) {
  const size_t at = find_id(text, s.id);
  if (at == std::string::npos) return;
  s.line = line_col(text, at).first;
  for (const auto& [key, value] : s.args.items()) {
    size_t k = text.find("\"" + key + "\"", at);
    if (k == std::string::npos) continue;
    size_t v = text.find_first_not_of(" \t\r\n:", k + key.size() + 2);
    s.arg_at[key] = line_col(text, v == std::string::npos ? k : v);
  }
}

}  // namespace

std::vector<Scenario> load_scenarios(const Data& data) {
  const auto path = data.root() / "scenarios" / "book.json";
  const std::string text = inputs::read_bounded(path, kMaxDataFileBytes).bytes;
  // The real book's forms (scenario_file.hpp) name no command of this library: none to run.
  if (is_lfs_pointer(text)) return {};
  Json doc = read_json_file(path);
  if (is_topic_form(doc)) return {};
  const std::string where = "scenarios/book.json";
  if (!doc.is_object() || doc.value("schema_version", 0) != 1 || !doc.contains("scenarios") ||
      !doc["scenarios"].is_array())
    throw Error(where + ": expected {\"schema_version\": 1, \"scenarios\": [...]}");
  std::vector<Scenario> out;
  std::set<std::string> seen;
  size_t index = 0;
  for (const auto& row : doc["scenarios"]) {
    std::string at = where + ": scenario #" + std::to_string(index++);
    if (!row.is_object() || !row.contains("id") || !row["id"].is_string() || !row.contains("command") ||
        !row["command"].is_string())
      throw Error(at + " needs string fields id and command");
    Scenario s{row["id"].get<std::string>(),
               row["command"].get<std::string>(),
               row.value("args", Json::object()),
               0,
               {}};
    at = where + ": scenario '" + s.id + "'";
    for (const auto& [k, v] : row.items())
      if (k != "id" && k != "command" && k != "args" && k != "note")
        throw Error(at + ": unknown field '" + k + "'");
    if (s.id.empty()) throw Error(at + ": empty id");
    for (char c : s.id)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
        throw Error(at + ": ids use lowercase letters, digits and '-' only");
    if (!seen.insert(s.id).second) throw Error(at + ": duplicate id");
    if (!s.args.is_object()) throw Error(at + ": args must be an object");
    command_spec(s.command);  // unknown command: error now, not at run time
    locate(text, s);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<ScenarioProblem> check_scenario_references(const Data& data,
                                                       const std::vector<Scenario>& scenarios) {
  std::vector<ScenarioProblem> problems;
  std::map<std::string, const Scenario*> by_id;
  for (const auto& s : scenarios) by_id[s.id] = &s;
  // Edges of the dependency graph, each with the place of the argument that makes it.
  std::map<std::string, std::vector<std::pair<std::string, std::pair<int, int>>>> deps;
  for (const auto& s : scenarios) {
    for (const auto& item : s.args.items()) {
      // Named copies: clang 14 (the fuzz build) cannot capture structured bindings in a lambda.
      const std::string& key = item.key();
      const auto& value = item.value();
      if (!is_formula(value)) continue;
      auto at = s.arg_at.count(key) ? s.arg_at.at(key) : std::pair<int, int>{s.line, 1};
      auto problem = [&](const std::string& msg) {
        problems.push_back({at.first, at.second, "scenario '" + s.id + "', argument '" + key + "': " + msg});
      };
      std::vector<std::string> refs;
      try {
        refs = formula_references(value.get<std::string>());
      } catch (const Error& e) {
        problem(e.what());
        continue;
      }
      for (const auto& ref : refs) {
        auto open = ref.find('('), dot = ref.find('.');
        if (open != std::string::npos && (dot == std::string::npos || open < dot)) {
          std::string head = ref.substr(0, open);
          std::string inner = ref.substr(open + 1, ref.find(')', open) - open - 1);
          try {
            if (head == "model") data.model(inner);
            if (head == "hardware" && inner.find('=') == std::string::npos) data.device(inner);
          } catch (const Error& e) {
            problem("reference `" + ref + "`: " + e.what());
          }
          continue;
        }
        std::string id = ref.substr(0, dot);
        if (dot == std::string::npos)
          problem("reference `" + ref + "` names no field (write scenario-id.field)");
        else if (!by_id.count(id))
          problem("reference `" + ref + "` names an unknown scenario '" + id + "'");
        else
          deps[s.id].push_back({id, at});
      }
    }
  }
  // Cycles: depth-first search; each cycle is reported once, at the argument that closes it.
  std::map<std::string, int> state;  // 0 new, 1 on the stack, 2 done
  std::vector<std::string> stack;
  std::function<void(const std::string&)> visit = [&](const std::string& id) {
    state[id] = 1;
    stack.push_back(id);
    for (const auto& [to, at] : deps[id]) {
      if (state[to] == 1) {
        std::string chain;
        for (auto it = std::find(stack.begin(), stack.end(), to); it != stack.end(); ++it)
          chain += *it + " -> ";
        problems.push_back({at.first, at.second, "scenario arguments form a cycle: " + chain + to});
      } else if (state[to] == 0) {
        visit(to);
      }
    }
    stack.pop_back();
    state[id] = 2;
  };
  for (const auto& s : scenarios)
    if (state[s.id] == 0) visit(s.id);
  std::sort(problems.begin(), problems.end(),
            [](const auto& a, const auto& b) { return std::tie(a.line, a.col) < std::tie(b.line, b.col); });
  return problems;
}

Json run_scenario(const Data& data, const Scenario& s) {
  try {
    return run_command(data, s.command, s.args, data.root());
  } catch (const Error& e) {
    throw Error("scenario '" + s.id + "': " + e.what());
  }
}

}  // namespace bb::calc
