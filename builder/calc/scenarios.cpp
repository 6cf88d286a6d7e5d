// Loading and running the book's scenarios (see scenarios.hpp).
#include "calc/scenarios.hpp"

#include <set>

#include "calc/command.hpp"
#include "calc/error.hpp"

namespace bb::calc {

std::vector<Scenario> load_scenarios(const Data& data) {
  const auto path = data.root() / "scenarios" / "book.json";
  Json doc = read_json_file(path);
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
    Scenario s{row["id"].get<std::string>(), row["command"].get<std::string>(),
               row.value("args", Json::object())};
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
    out.push_back(std::move(s));
  }
  return out;
}

Json run_scenario(const Data& data, const Scenario& s) {
  try {
    return run_command(data, s.command, s.args, data.root());
  } catch (const Error& e) {
    throw Error("scenario '" + s.id + "': " + e.what());
  }
}

}  // namespace bb::calc
