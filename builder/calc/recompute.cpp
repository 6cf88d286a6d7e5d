// Recomputing stored results and comparing them field by field (see recompute.hpp).
#include "calc/recompute.hpp"

#include <algorithm>
#include <fstream>

#include "calc/calculations.hpp"
#include "calc/error.hpp"
#include "calc/scenario_file.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

namespace {

std::string shown(const Json& v) {
  if (v.is_array()) return "[" + std::to_string(v.size()) + " items]";
  if (v.is_object()) return "{" + std::to_string(v.size()) + " keys}";
  return dump_scalar(v);
}

void compare(const Json& a, const Json& b, const std::string& at, std::vector<FieldDiff>& out) {
  if (is_prose_field(at)) return;
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      const std::string p = at + "/" + pointer_token(key);
      if (auto it = b.find(key); it != b.end())
        compare(value, *it, p, out);
      else if (!is_prose_field(p))
        out.push_back({p, shown(value), "(absent)"});
    }
    for (const auto& [key, value] : b.items()) {
      const std::string p = at + "/" + pointer_token(key);
      if (!a.contains(key) && !is_prose_field(p)) out.push_back({p, "(absent)", shown(value)});
    }
    return;
  }
  if (a.is_array() && b.is_array()) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) compare(a[i], b[i], at + "/" + std::to_string(i), out);
    if (a.size() != b.size()) out.push_back({at, shown(a), shown(b)});
    return;
  }
  if (a.is_structured() || b.is_structured() || dump_scalar(a) != dump_scalar(b))
    out.push_back({at.empty() ? "/" : at, shown(a), shown(b)});
}

bool lfs_pointer_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string head(1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return is_lfs_pointer(head);
}

RecomputeOutcome not_recomputed(NotRecomputedReason reason, std::string calculation, std::string message) {
  RecomputeOutcome out;
  out.reason = reason;
  out.calculation = std::move(calculation);
  out.message = std::move(message);
  return out;
}

// The "calculation" a document names, or empty when it names none (or not as a string).
std::string calculation_name(const Json& doc) {
  if (!doc.is_object() || !doc.contains("calculation") || !doc["calculation"].is_string()) return {};
  return doc["calculation"].get<std::string>();
}

// The stored prose where the fresh document has the same field.
void carry_prose(const Json& stored, Json& fresh, const std::string& at) {
  if (stored.is_object() && fresh.is_object()) {
    for (auto& [key, value] : fresh.items())
      if (auto it = stored.find(key); it != stored.end()) {
        const std::string p = at + "/" + pointer_token(key);
        if (is_prose_field(p))
          value = *it;
        else
          carry_prose(*it, value, p);
      }
  } else if (stored.is_array() && fresh.is_array()) {
    for (std::size_t i = 0; i < stored.size() && i < fresh.size(); ++i)
      carry_prose(stored[i], fresh[i], at + "/" + std::to_string(i));
  }
}

}  // namespace

bool is_prose_field(const std::string& pointer) {
  if (pointer == "/assumptions" || pointer.starts_with("/assumptions/")) return true;
  const std::string last = pointer.substr(pointer.rfind('/') + 1);
  return last == "note" || last == "notes";
}

std::vector<FieldDiff> compare_documents(const Json& stored, const Json& fresh) {
  std::vector<FieldDiff> out;
  compare(stored, fresh, "", out);
  return out;
}

std::string reason_name(NotRecomputedReason reason) {
  switch (reason) {
    case NotRecomputedReason::NoCalculation: return "no_calculation";
    case NotRecomputedReason::MissingInput: return "missing_input";
    case NotRecomputedReason::LfsPointer: return "lfs_pointer";
    case NotRecomputedReason::Invalid: return "invalid";
    case NotRecomputedReason::None: break;
  }
  return "";
}

RecomputeOutcome recompute_document(const Data& data, const Json& stored) {
  const std::string name = calculation_name(stored);
  const Calculation* calc = find_calculation(name);
  if (!calc)
    return not_recomputed(NotRecomputedReason::NoCalculation, name,
                          name.empty() ? "the result names no calculation"
                                       : "calculation '" + name + "' is not in the library");
  RecomputeOutcome out;
  out.calculation = name;
  try {
    out.fresh = calc->recompute(data, stored);
  } catch (const MissingInput& e) {
    out = not_recomputed(NotRecomputedReason::MissingInput, name, e.what());
    out.missing = e.path();
    return out;
  } catch (const Error& e) {
    return not_recomputed(NotRecomputedReason::Invalid, name, e.what());
  } catch (const Json::exception& e) {
    return not_recomputed(NotRecomputedReason::Invalid, name, e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    return not_recomputed(NotRecomputedReason::Invalid, name, e.what());
  }
  out.diffs = compare_documents(stored, out.fresh);
  out.status = out.diffs.empty() ? RecomputeStatus::Equal : RecomputeStatus::Stale;
  return out;
}

RecomputeOutcome recompute_file(const Data& data, const fs::path& file) {
  if (lfs_pointer_file(file))
    return not_recomputed(NotRecomputedReason::LfsPointer, "", "a Git LFS pointer (run `git lfs pull`)");
  Json stored;
  try {
    stored = read_json_file(file);
  } catch (const Error& e) {
    return not_recomputed(NotRecomputedReason::Invalid, "", e.what());
  }
  return recompute_document(data, stored);
}

Json regenerate(const Data& data, const Json& stored) {
  const std::string name = calculation_name(stored);
  const Calculation* calc = find_calculation(name);
  if (!calc) throw Error("calculation '" + name + "' is not in the library");
  Json fresh;
  try {
    fresh = calc->recompute(data, stored);
  } catch (const Json::exception& e) {
    throw Error(e.what());
  }
  carry_prose(stored, fresh, "");
  return fresh;
}

Json verify_recorded_results(const Data& data) {
  std::vector<fs::path> files;
  const fs::path dir = data.root() / "results";
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json" && e.path().filename() != "manifest.json")
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Json results = Json::array(), problems = Json::array();
  int equal = 0, stale = 0, skipped = 0;
  for (const auto& f : files) {
    RecomputeOutcome o = recompute_file(data, f);
    Json row = Json::object();
    row["result"] = "results/" + f.filename().string();
    row["calculation"] = o.calculation;
    if (o.status == RecomputeStatus::NotRecomputed) {
      ++skipped;
      row["status"] = "not_recomputed";
      row["reason"] = reason_name(o.reason);
      if (!o.missing.empty()) row["missing"] = "calculations/" + o.missing;
      row["message"] = o.message;
    } else {
      ++(o.status == RecomputeStatus::Equal ? equal : stale);
      row["status"] = o.status == RecomputeStatus::Equal ? "equal" : "stale";
      Json fields = Json::array();
      for (const auto& d : o.diffs) {
        fields.push_back(Json{{"field", d.pointer}, {"stored", d.stored}, {"recomputed", d.recomputed}});
        problems.push_back(row["result"].get<std::string>() + " is stale: " + d.pointer + " stored " +
                           d.stored + ", recomputed " + d.recomputed);
      }
      row["fields"] = fields;
    }
    results.push_back(std::move(row));
  }
  Json doc = Json::object();
  doc["calculation"] = "verify-results";
  doc["summary"] = Json{{"ok", stale == 0}, {"results", files.size()}, {"recomputed", equal + stale},
                        {"equal", equal},   {"stale", stale},          {"not_recomputed", skipped}};
  doc["results"] = results;
  doc["problems"] = problems;
  return doc;
}

}  // namespace bb::calc
