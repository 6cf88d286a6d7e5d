// Drawing a chart spec for one edition: its values evaluated through the caller's calc evaluator, its
// numbers formatted in the edition's locale, its words in the edition's language, laid out with real
// font metrics; out come a deterministic SVG and the same data as a table for readers who do not see it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "charts/spec.hpp"
#include "diag/diagnostics.hpp"

namespace bb::charts {

struct Environment {
  std::string edition;  // "zh-tw": picks texts keyed by edition
  std::string lang;     // "zh-Hant": picks texts keyed by language, and the interface words
  // A calc expression's value in base units; throws std::exception with a message on failure.
  std::function<double(const std::string& expr)> evaluate;
  // A value in a {{calc}} format (`fixed:1`, `ms:2:bare`) for this edition; throws on a bad format.
  std::function<std::string(double value, const std::string& format)> format;
};

struct DataTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Chart {
  std::string svg;
  DataTable table;
  std::vector<std::string> expressions;  // every calc expression the chart used, in spec order
};

// Draws `spec` for one edition. Every problem (a value that cannot be computed, a text missing for the
// edition, a label that does not fit) is an error at its line in the spec; nullopt when there was one.
std::optional<Chart> draw(const Spec& spec, const Environment& env, Diagnostics& diags);

}  // namespace bb::charts
