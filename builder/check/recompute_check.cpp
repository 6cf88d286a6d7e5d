// Recomputing the cited results of the real book (see recompute_check.hpp).
#include "check/recompute_check.hpp"

#include <optional>

#include "calc/data.hpp"
#include "calc/error.hpp"

namespace bb::check {

namespace {

// How many differing fields an error spells out; the report (--format json, `calc verify-results`)
// lists them all.
constexpr std::size_t kFieldsShown = 5;

std::string describe(const RecomputedResult& r) {
  std::string text = r.result + " is stale (recomputed by " + r.calculation + "): ";
  for (std::size_t i = 0; i < r.fields.size() && i < kFieldsShown; ++i) {
    const auto& f = r.fields[i];
    text += (i ? "; " : "") + f.pointer + " stored " + f.stored + ", recomputed " + f.recomputed;
  }
  if (r.fields.size() > kFieldsShown)
    text += "; and " + std::to_string(r.fields.size() - kFieldsShown) + " more fields";
  return text;
}

}  // namespace

RecomputeReport check_recomputed(const std::filesystem::path& calculations, const CitationsReport& citations,
                                 const std::set<std::string>& skip, Diagnostics& diags) {
  RecomputeReport report;
  std::optional<calc::Data> data;
  try {
    data.emplace(calculations);
  } catch (const calc::Error&) {
    return report;  // no calculations folder: nothing is cited from one either
  }
  for (const auto& [name, path] : citations.cited) {
    if (!name.starts_with("results/") || !name.ends_with(".json")) continue;
    const std::string id = name.substr(8, name.size() - 13);
    if (skip.count(id)) continue;
    calc::RecomputeOutcome o = calc::recompute_file(*data, calculations / name);
    RecomputedResult r;
    r.result = path;
    r.calculation = o.calculation;
    r.status = o.status;
    r.reason = calc::reason_name(o.reason);
    if (!o.missing.empty()) r.missing = "calculations/" + o.missing;
    r.message = o.message;
    r.fields = std::move(o.diffs);
    auto places = citations.citing_places.find(name);
    if (places != citations.citing_places.end()) r.citing_places = static_cast<int>(places->second.size());
    switch (r.status) {
      case calc::RecomputeStatus::Equal:
        ++report.equal;
        report.recomputed.insert(id);
        break;
      case calc::RecomputeStatus::Stale:
        ++report.stale;
        report.recomputed.insert(id);
        if (places != citations.citing_places.end())
          for (const auto& at : places->second) diags.error(at, describe(r));
        break;
      case calc::RecomputeStatus::NotRecomputed: ++report.not_recomputed; break;
    }
    report.results.push_back(std::move(r));
  }
  return report;
}

nlohmann::ordered_json recompute_json(const RecomputeReport& report) {
  nlohmann::ordered_json j;
  j["recomputed"] = report.equal + report.stale;
  j["equal"] = report.equal;
  j["stale"] = report.stale;
  j["not_recomputed"] = report.not_recomputed;
  auto list = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    nlohmann::ordered_json row;
    row["result"] = r.result;
    row["calculation"] = r.calculation;
    row["status"] = r.status == calc::RecomputeStatus::Equal   ? "equal"
                    : r.status == calc::RecomputeStatus::Stale ? "stale"
                                                               : "not_recomputed";
    row["citing_places"] = r.citing_places;
    if (r.status == calc::RecomputeStatus::NotRecomputed) {
      row["reason"] = r.reason;
      if (!r.missing.empty()) row["missing"] = r.missing;
      row["message"] = r.message;
    }
    if (r.status == calc::RecomputeStatus::Stale) {
      auto fields = nlohmann::ordered_json::array();
      for (const auto& f : r.fields)
        fields.push_back({{"field", f.pointer}, {"stored", f.stored}, {"recomputed", f.recomputed}});
      row["fields"] = fields;
    }
    list.push_back(std::move(row));
  }
  j["results"] = list;
  return j;
}

}  // namespace bb::check
