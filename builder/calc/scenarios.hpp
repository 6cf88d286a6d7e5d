// The book's named scenarios (calculations/scenarios/book.json) and running them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// One row of book.json: {"id": "...", "command": "forward", "args": {"model": "qwen3-8b", ...}}.
struct Scenario {
  std::string id;
  std::string command;
  Json args;
  int line = 0;  // of the row's "id" in scenarios/book.json (1-based), for diagnostics
  std::map<std::string, std::pair<int, int>> arg_at;  // line and column of each argument's value
};

// A problem in scenarios/book.json at its place (1-based line and column).
struct ScenarioProblem {
  int line = 0;
  int col = 0;
  std::string message;
};

// Checks the arguments given by reference (`"flops": "=other-scenario.matrix_flops / 8"`): formula
// syntax, references to unknown scenarios, models or devices, and cycles between scenarios. Returns
// every problem, each where it is written.
std::vector<ScenarioProblem> check_scenario_references(const Data& data,
                                                       const std::vector<Scenario>& scenarios);

// Loads and checks scenarios/book.json: unique ids of [a-z0-9-], known commands, args an object.
std::vector<Scenario> load_scenarios(const Data& data);

// Runs one scenario (file arguments resolve against the calculations folder).
Json run_scenario(const Data& data, const Scenario& scenario);

}  // namespace bb::calc
