// Scenario arguments by reference: `"flops": "=qwen3-8b-decode-b1-s8192.matrix_flops / 8"`.
// A formula is `=` then references and numbers joined by + - * / and parentheses (operators stand
// between spaces, since `-` also joins the words of a scenario id). Integers stay exact: an integer
// division that leaves a remainder is an error, so a typed "one eighth" cannot round silently.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calc/json.hpp"

namespace bb::calc {

// True for a JSON string argument that is a formula (starts with '=').
bool is_formula(const Json& value);

// The references a formula names (`scenario.field`, `model(id).field`, `hardware(id).peak(...)`).
std::vector<std::string> formula_references(std::string_view formula);

// Evaluates a formula; `lookup` resolves one reference to a JSON number (it throws calc::Error).
// The result is a JSON integer when every operand is one and no division leaves a remainder.
Json evaluate_formula(std::string_view formula, const std::function<Json(const std::string&)>& lookup);

}  // namespace bb::calc
