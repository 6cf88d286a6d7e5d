// The machine-readable form of the citations check (see citations.hpp).
#include "check/citations.hpp"

namespace bb::check {

namespace {

nlohmann::ordered_json place(const SourceLoc& loc, const std::filesystem::path& root) {
  return {{"path", loc.path.lexically_relative(root).generic_string()}, {"line", loc.line}, {"col", loc.col}};
}

nlohmann::ordered_json entries(const std::vector<CitationEntry>& list, const std::filesystem::path& root,
                               bool bound) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& e : list) {
    auto j = place(e.loc, root);
    j["text"] = e.text;
    if (bound) {
      j["result"] = e.result;
      j["field"] = e.field;
      j["value"] = e.value;
      if (e.bound) j["bound"] = true;
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

nlohmann::ordered_json citations_json(const CitationsReport& report, const std::filesystem::path& root) {
  nlohmann::ordered_json j;
  j["typed"] = report.typed;
  j["citing"] = report.citing;
  j["checked"] = entries(report.checked, root, true);
  j["unchecked"] = entries(report.unchecked, root, false);
  j["mismatches"] = entries(report.mismatches, root, true);
  auto missing = nlohmann::ordered_json::array();
  for (const auto& [loc, result] : report.missing) {
    auto m = place(loc, root);
    m["result"] = result;
    missing.push_back(std::move(m));
  }
  j["missing"] = missing;
  j["results_recomputed"] = report.recomputed;
  j["results_not_recomputed"] = report.not_recomputed;
  return j;
}

}  // namespace bb::check
