// The book's named scenarios (calculations/scenarios/book.json) and running them.
#pragma once

#include <string>
#include <vector>

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// One row of book.json: {"id": "...", "command": "forward", "args": {"model": "qwen3-8b", ...}}.
struct Scenario {
  std::string id;
  std::string command;
  Json args;
};

// Loads and checks scenarios/book.json: unique ids of [a-z0-9-], known commands, args an object.
std::vector<Scenario> load_scenarios(const Data& data);

// Runs one scenario (file arguments resolve against the calculations folder).
Json run_scenario(const Data& data, const Scenario& scenario);

}  // namespace bb::calc
