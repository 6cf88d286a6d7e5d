// The registry of the real book's calculations (see calculations.hpp). One row per calculation; the
// functions live in the file of their topic.
#include "calc/calculations.hpp"

namespace bb::calc {

const std::vector<Calculation>& calculations() {
  static const std::vector<Calculation> all = {
      // Rows are added by each topic as it is ported: {"request-dag", "request-dag", request_dag_recompute},
  };
  return all;
}

const Calculation* find_calculation(std::string_view name) {
  for (const auto& c : calculations())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace bb::calc
