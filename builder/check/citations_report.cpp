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
    if (bound && !e.field.empty()) {
      j["result"] = e.result;
      j["field"] = e.field;
      j["value"] = e.value;
      if (e.bound) j["bound"] = true;
      if (!e.derive.empty()) j["derive"] = e.derive, j["of"] = e.of;
    }
    if (!e.how.empty()) j["how"] = e.how;
    if (!e.reason.empty()) j["reason"] = e.reason;
    if (!e.missing.empty()) {
      auto m = nlohmann::ordered_json::array();
      for (const auto& name : e.missing) m.push_back("calculations/" + name);
      j["missing"] = std::move(m);
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::map<std::string, int> citation_counts(const std::vector<CitationEntry>& list, bool by_how) {
  std::map<std::string, int> out;
  for (const auto& e : list) ++out[by_how ? e.how : e.reason];
  return out;
}

nlohmann::ordered_json citations_json(const CitationsReport& report, const std::filesystem::path& root) {
  nlohmann::ordered_json j;
  j["typed"] = report.typed;
  j["citing"] = report.citing;
  j["checked"] = entries(report.checked, root, true);
  j["unchecked"] = entries(report.unchecked, root, false);
  j["mismatches"] = entries(report.mismatches, root, true);
  j["waived"] = entries(report.waived, root, false);
  // The counts reconcile: citing = checked + unchecked + waived + mismatches; checked by how, unchecked
  // by reason.
  nlohmann::ordered_json counts;
  counts["typed"] = report.typed;
  counts["citing"] = report.citing;
  for (const auto& [how, n] : citation_counts(report.checked, true)) counts["checked_by"][how] = n;
  for (const auto& [why, n] : citation_counts(report.unchecked, false)) counts["unchecked_by"][why] = n;
  counts["checked"] = report.checked.size();
  counts["unchecked"] = report.unchecked.size();
  counts["waived"] = report.waived.size();
  counts["mismatches"] = report.mismatches.size();
  counts["not_in_lock"] = report.not_in_lock;
  counts["lock_entries"] = report.lock_entries;
  j["counts"] = counts;
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
