// `paired-projection-conditional-cost` (see paired_projection.hpp). Ported from the real book's
// calculations/src/infra_calc/topics/paired_projection_cost.py (bojieli/ai-infra-book): for M in {1, 256}
// and weights reused or rotating, t = median of 11 trial batch averages (recorded here); the RTX/Mac
// rate ratio at which both cost the same is t_Mac / t_RTX; cost per call = t * hourly rate / 3600;
// energy per call = t * watts. Ties name every device.
#include "calc/paired_projection.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "calc/error.hpp"
#include "calc/fraction.hpp"
#include "calc/model.hpp"
#include "calc/stored_result.hpp"

namespace bb::calc {
namespace {

struct DeviceRates {
  Rational mps, cuda;
};

// {"mps": r, "cuda": r} with both present, each a positive integer or an exact numeric string.
std::optional<DeviceRates> read_rates(const Json& value, const std::string& name) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_object() || value.size() != 2 || !value.contains("mps") || !value.contains("cuda"))
    throw Error(name + " requires both mps and cuda");
  auto one = [&](const char* device) {
    const Json& v = value[device];
    const std::string what = name + "." + device;
    Rational q;
    if (v.is_number_integer())
      q = Rational::ratio(
          v.is_number_unsigned() ? static_cast<__int128>(v.get<std::uint64_t>()) : v.get<std::int64_t>(), 1);
    else if (v.is_string())
      q = parse_fraction(v.get<std::string>(), what);
    else
      throw Error(what + ": use an integer or an exact numeric string");
    if (!(Rational{0, 1} < q)) throw Error(what + " must be positive");
    return q;
  };
  return DeviceRates{one("mps"), one("cuda")};
}

Json winner(const std::optional<std::pair<Rational, Rational>>& values) {
  if (!values) return nullptr;
  const auto& [mps, cuda] = *values;
  Json out = Json::array();
  if (!(cuda < mps)) out.push_back("mps");
  if (!(mps < cuda)) out.push_back("cuda");
  return out;
}

Json pair_json(const std::optional<std::pair<Rational, Rational>>& values) {
  if (!values) return nullptr;
  return Json{{"mps", exact_json(values->first)}, {"cuda", exact_json(values->second)}};
}

}  // namespace

Json paired_projection_document(const Data& data, const PairedProjectionScenario& in) {
  const auto costs = read_rates(in.hourly_cost_units, "hourly_cost_units");
  const auto power = read_rates(in.whole_system_watts, "whole_system_watts");
  const ModelDims dims = model_dims(data.model(in.model));
  const Int h = dims.hidden, q = dims.heads * dims.head_dim;
  Json rows = Json::array();
  for (Int m : {Int(1), Int(256)}) {
    for (const char* mode : {"reused", "rotating"}) {
      auto it = in.timings.find({m.value(), mode});
      if (it == in.timings.end())
        throw Error("no recorded time for m=" + std::to_string(m.value()) + ", mode " + mode);
      const auto& t = it->second;
      const Rational hour = Rational::of(3600);
      std::optional<std::pair<Rational, Rational>> cost, energy;
      if (costs) cost = std::pair{t.mps * costs->mps / hour, t.cuda * costs->cuda / hour};
      if (power) energy = std::pair{t.mps * power->mps, t.cuda * power->cuda};
      rows.push_back(
          Json{{"m", m.value()},
               {"n", q.value()},
               {"k", h.value()},
               {"mode", mode},
               {"matrix_flops", (Int(2) * m * q * h).value()},
               {"times_seconds_exact", Json{{"mps", exact_json(t.mps)}, {"cuda", exact_json(t.cuda)}}},
               {"reported_reference_max_abs_error", t.max_abs_error},
               {"rtx_over_mac_rate_tie_ratio", exact_json(t.mps / t.cuda)},
               {"cost_per_call_proxy", pair_json(cost)},
               {"joules_per_call_proxy", pair_json(energy)},
               {"lower_declared_cost", winner(cost)},
               {"lower_declared_energy", winner(energy)},
               {"measured_task_energy_joules", nullptr},
               {"observed_cost_per_call", nullptr}});
    }
  }
  Json doc = Json::object();
  doc["calculation"] = "paired-projection-conditional-cost";
  doc["sources"] = in.sources.is_null() ? Json::array() : in.sources;
  doc["model_sources"] = in.model_sources.is_null() ? model_provenance(data, in.model) : in.model_sources;
  doc["scenario"] =
      Json{{"hourly_cost_units", in.hourly_cost_units}, {"whole_system_watts", in.whole_system_watts}};
  doc["rows"] = rows;
  doc["assumptions"] = Json::array({
      "Each time is the median of 11 recorded trial averages of 16 calls (submission and synchronisation "
      "included); it is not a single-call latency or a tail percentile.",
      "Both devices run the same BF16 fixtures with the Q-projection shape of the model; compare the same "
      "M and weight mode only.",
      "RTX is cheaper in the active-time proxy when its hourly rate over the Mac's is below t_Mac / t_RTX "
      "(equal ties); the same holds for declared whole-system watts.",
      "Rates and watts are declared scenario inputs, not prices, TDP or measured energy; unknown stays null.",
  });
  return doc;
}

namespace {

using Timings = std::map<std::pair<std::int64_t, std::string>, PairedProjectionScenario::Timing>;

// A number of the archive as the reference reads it (json.loads with parse_float=str, then Fraction):
// the archive was written by Python, whose floats print as repr, so repr of the double is the text.
Rational archived_number(const Json& v, const std::string& what) {
  if (v.is_number_unsigned()) return Rational::ratio(static_cast<__int128>(v.get<std::uint64_t>()), 1);
  if (v.is_number_integer()) return Rational::ratio(v.get<std::int64_t>(), 1);
  if (v.is_number_float()) return parse_fraction(py_repr(v.get<double>()), what);
  throw Error(what + " must be a number");
}
Json archived_scalar(const Json& v) {
  return v.is_number_float() ? Json(py_repr(v.get<double>())) : v;
}

// obj[key] when obj is an object holding it; null otherwise (the archive is untrusted: any shape).
const Json& field(const Json& obj, const char* key) {
  static const Json none;
  if (!obj.is_object()) return none;
  auto it = obj.find(key);
  return it == obj.end() ? none : *it;
}

// The medians of the recorded trial averages, when the book holds the timing archive
// (sources/paired-projection-cost/results/projection-{mps,cuda}/results.json); nothing when it does not.
std::optional<Timings> archive_timings(const Data& data, Int q, Int h) {
  const std::string base = "sources/paired-projection-cost/results/projection-";
  const std::filesystem::path mps = data.root() / (base + "mps/results.json"),
                              cuda = data.root() / (base + "cuda/results.json");
  if (!std::filesystem::exists(mps) && !std::filesystem::exists(cuda)) return std::nullopt;
  const Json raw[2] = {read_json_file(mps), read_json_file(cuda)};
  if (field(field(raw[0], "environment"), "weight_sha256") !=
      field(field(raw[1], "environment"), "weight_sha256"))
    throw Error("timing archive: the two devices ran different weight fixtures");
  Timings out;
  for (Int m : {Int(1), Int(256)}) {
    const Json* rows[2] = {nullptr, nullptr};
    for (int dev = 0; dev < 2; ++dev) {
      const Json& list = field(raw[dev], "rows");
      if (!list.is_array()) continue;
      for (const auto& row : list)  // the archive's own rows: the pointers stay valid
        if (!rows[dev] && field(row, "m") == m.value()) rows[dev] = &row;
    }
    const std::string where = "timing archive, m=" + std::to_string(m.value());
    if (!rows[0] || !rows[1]) throw Error(where + ": a device has no row");
    if (field(*rows[0], "input_sha256") != field(*rows[1], "input_sha256"))
      throw Error(where + ": the two devices ran different activation fixtures");
    for (const Json* row : rows)
      if (field(*row, "n") != q.value() || field(*row, "k") != h.value() ||
          field(*row, "all_16_weight_buffers_checked") != true)
        throw Error(where + ": the projection shape or the buffer checks differ from the model's");
    for (const char* mode : {"reused", "rotating"}) {
      Rational median[2];
      for (int dev = 0; dev < 2; ++dev) {
        const Json& samples = field(field(field(*rows[dev], "paths"), mode), "wall_us");
        if (!samples.is_array() || samples.size() != 11)
          throw Error(where + ", " + mode + ": expected 11 trial averages");
        std::vector<Rational> values;
        for (const auto& v : samples) {
          values.push_back(archived_number(v, where + ", " + mode));
          if (!(Rational{0, 1} < values.back()))
            throw Error(where + ", " + mode + ": trial averages must be positive");
        }
        std::sort(values.begin(), values.end(), [](Rational a, Rational b) { return a < b; });
        median[dev] = values[5] / Rational::of(1'000'000);
      }
      out[{m.value(), mode}] = {median[0], median[1],
                                Json{{"mps", archived_scalar(field(*rows[0], "max_abs_error"))},
                                     {"cuda", archived_scalar(field(*rows[1], "max_abs_error"))}}};
    }
  }
  return out;
}

}  // namespace

Json paired_projection_recompute(const Data& data, const Json& stored) {
  const Json& s = stored_object(stored, "scenario");
  PairedProjectionScenario in;
  in.hourly_cost_units = s.contains("hourly_cost_units") ? s["hourly_cost_units"] : Json();
  in.whole_system_watts = s.contains("whole_system_watts") ? s["whole_system_watts"] : Json();
  // The model whose config the stored model sources cite (the reference uses qwen3-8b).
  in.model_sources = rehash_sources(data, stored_list(stored, "model_sources"));
  const std::string prefix = "configs/models/", suffix = "/config.json";
  for (const auto& row : in.model_sources) {
    const std::string file = row.is_object() ? row.value("file", "") : "";
    if (file.starts_with(prefix) && file.ends_with(suffix) && file.size() > prefix.size() + suffix.size()) {
      in.model = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
      break;
    }
  }
  in.sources = rehash_sources(data, stored_list(stored, "sources"));
  const ModelDims dims = model_dims(data.model(in.model));
  if (auto archived = archive_timings(data, dims.heads * dims.head_dim, dims.hidden)) {
    in.timings = std::move(*archived);
    return with_stored_prose(paired_projection_document(data, in), stored);
  }
  // Without the archive the recorded medians are the measured input.
  for (const auto& row : stored_list(stored, "rows")) {
    const std::string where = "rows[m=" + (row.contains("m") ? dump_scalar(row["m"]) : "?") + "]";
    const Int m = stored_int(row, "m", where);
    const std::string mode = stored_string(row, "mode", where);
    const Json& times = stored_object(row, "times_seconds_exact");
    PairedProjectionScenario::Timing t{
        read_exact(times.value("mps", Json()), where + ".times_seconds_exact.mps"),
        read_exact(times.value("cuda", Json()), where + ".times_seconds_exact.cuda"),
        row.value("reported_reference_max_abs_error", Json())};
    if (!(Rational{0, 1} < t.mps) || !(Rational{0, 1} < t.cuda))
      throw Error(where + ": times must be positive");
    in.timings[{m.value(), mode}] = t;
  }
  return with_stored_prose(paired_projection_document(data, in), stored);
}

}  // namespace bb::calc
