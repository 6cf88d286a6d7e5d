// Hardware catalog, audit, roofline and the Q-projection bound (see hardware.hpp).
#include "calc/hardware.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <set>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {

const Json* find_peak(const Json& device, const PeakKey& key) {
  if (!device.contains("peak_rates")) return nullptr;
  for (const auto& row : device["peak_rates"])
    if (row.value("input_precision", "") == key.input_precision &&
        row.value("accumulator_precision", "") == key.accumulator_precision &&
        row.value("execution_unit", "") == key.execution_unit && row.value("sparsity", "") == key.sparsity)
      return &row;
  return nullptr;
}

std::string describe(const PeakKey& k) {
  return k.input_precision + " input / " + k.accumulator_precision + " accumulate / " + k.execution_unit +
         " / " + k.sparsity;
}

double check_efficiency(double v, const char* name) {
  if (!std::isfinite(v)) throw Error(std::string(name) + " must be finite");
  if (v <= 0 || v > 1) throw Error(std::string(name) + " must be in (0, 1], got " + py_repr(v));
  return v;
}

namespace {

// The number in a vendor's string ("989.4", "1,979 TFLOPS", "2,039GB/s"). With `rate`, the last number
// followed by TB/s or GB/s (GB/sec), in bytes per second; without, the first number.
std::optional<double> number_in(const std::string& text, bool rate) {
  static const std::regex plain(R"(([0-9][0-9,]*(?:\.[0-9]+)?(?:e[0-9]+)?))");
  static const std::regex with_unit(R"(([0-9][0-9,]*(?:\.[0-9]+)?)\s*(TB/s|GB/s|GB/sec))");
  std::optional<double> out;
  const std::regex& re = rate ? with_unit : plain;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    std::string digits = (*it)[1].str();
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    // Scaled in decimal (3.35e12), not by a binary multiplication that could round off the last bit.
    if (rate) digits += (*it)[2].str() == "TB/s" ? "e12" : "e9";
    out = std::strtod(digits.c_str(), nullptr);
    if (!rate) break;
  }
  return out;
}

// A derivation without a stated result ("838 with sparsity / 2"): its numbers combined left to right
// by the `*` and `/` between them; words in between are comments.
std::optional<double> derived_value(const std::string& text) {
  static const std::regex token(R"(([0-9][0-9,]*(?:\.[0-9]+)?(?:e[0-9]+)?)|([*/]))");
  std::optional<double> value;
  char op = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token); it != std::sregex_iterator(); ++it) {
    if ((*it)[2].matched) {
      op = (*it)[2].str()[0];
      continue;
    }
    std::string digits = (*it)[1].str();
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    double v = std::strtod(digits.c_str(), nullptr);
    if (!value)
      value = v;
    else if (op == '*')
      value = *value * v;
    else if (op == '/')
      value = *value / v;
    else
      return std::nullopt;  // two numbers without an operator: not a formula
    op = 0;
  }
  return value;
}

std::vector<std::string> audit_device(const Json& dev, const Json& catalog_sources) {
  std::vector<std::string> problems;
  std::set<std::string> ids;
  for (const auto& id : dev.value("source_ids", Json::array())) ids.insert(id.get<std::string>());
  std::set<std::string> known;
  for (const auto& s : catalog_sources) known.insert(s.value("id", ""));
  for (const auto& id : ids)
    if (!known.count(id)) problems.push_back("source id '" + id + "' has no entry in sources");
  const Json& mem = dev.value("memory", Json::object());
  if (mem.value("capacity_unit", "") != "GB") problems.push_back("memory.capacity_unit must be GB");
  if (mem.contains("source_id") && !ids.count(mem["source_id"].get<std::string>()))
    problems.push_back("memory.source_id is not among source_ids");
  std::set<std::string> keys;
  for (const auto& row : dev.value("peak_rates", Json::array())) {
    std::string key = row.value("input_precision", "") + "/" + row.value("accumulator_precision", "") + "/" +
                      row.value("execution_unit", "") + "/" + row.value("sparsity", "");
    if (!keys.insert(key).second) problems.push_back("duplicate peak key " + key);
    if (row.value("input_precision", "").rfind("INT", 0) == 0 &&
        row.value("operation_kind", "") == "floating_point")
      problems.push_back("integer peak " + key + " marked floating_point");
    if (!ids.count(row.value("source_id", "")))
      problems.push_back("peak " + key + " cites an unlisted source");
    // The value must be the one its source prints: `reported` as the vendor wrote it, or the result
    // after `=` at the end of a `derivation`. Editing the number alone is caught here.
    std::optional<double> recorded;
    std::string basis;
    if (row.contains("reported") && row["reported"].is_string()) {
      recorded = number_in(row["reported"].get<std::string>(), false);
      basis = "reported \"" + row["reported"].get<std::string>() + "\"";
    } else if (row.contains("derivation") && row["derivation"].is_string()) {
      const std::string& d = row["derivation"].get_ref<const std::string&>();
      if (auto eq = d.rfind('='); eq != std::string::npos)
        recorded = number_in(d.substr(eq + 1), false);
      else
        recorded = derived_value(d);
      basis = "derivation \"" + d + "\"";
    }
    if (!row.contains("tera_ops_per_second") || !row["tera_ops_per_second"].is_number())
      problems.push_back("peak " + key + " has no numeric tera_ops_per_second");
    else if (!recorded)
      problems.push_back("peak " + key + " records no source value (neither `reported` nor a `derivation`)");
    else if (*recorded != row["tera_ops_per_second"].get<double>())
      problems.push_back("peak " + key + ": tera_ops_per_second " +
                         py_repr(row["tera_ops_per_second"].get<double>()) +
                         " is not what its source records (" + basis + ")");
  }
  // Memory bandwidth against the figure quoted in its locator, when the locator quotes one.
  if (mem.contains("bandwidth_bytes_per_second") && mem["bandwidth_bytes_per_second"].is_number() &&
      mem.contains("locator") && mem["locator"].is_string()) {
    if (auto quoted = number_in(mem["locator"].get<std::string>(), true);
        quoted && *quoted != mem["bandwidth_bytes_per_second"].get<double>())
      problems.push_back(
          "memory.bandwidth_bytes_per_second " + py_repr(mem["bandwidth_bytes_per_second"].get<double>()) +
          " differs from the bandwidth its locator quotes (\"" + mem["locator"].get<std::string>() + "\")");
  }
  return problems;
}

Json peak_or_null(const Json* p) {
  return p ? *p : Json();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> audit_catalog(const Data& data) {
  const Json& hw = data.hardware();
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& dev : hw["devices"])
    for (auto& p : audit_device(dev, hw.value("sources", Json::array())))
      out.emplace_back(dev.value("id", ""), std::move(p));
  return out;
}

Json hardware_document(const Data& data, bool audit) {
  const Json& hw = data.hardware();
  if (!audit) return hw;
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "hardware-audit";
  Json devices = Json::array();
  Int problems = 0;
  for (const auto& dev : hw["devices"]) {
    Json d = Json::object();
    d["id"] = dev.value("id", "");
    d["peak_rows"] = dev.value("peak_rates", Json::array()).size();
    auto list = audit_device(dev, hw.value("sources", Json::array()));
    d["problems"] = list;
    problems += Int(static_cast<std::int64_t>(list.size()));
    devices.push_back(d);
  }
  doc["devices"] = devices;
  doc["summary"] = Json{{"device_count", hw["devices"].size()}, {"problem_count", problems.value()}};
  return doc;
}

Json roofline_document(const Data& data, const RooflineInput& in) {
  const Json& dev = data.device(in.device);
  for (const std::string* field :
       {&in.key.input_precision, &in.key.accumulator_precision, &in.key.execution_unit})
    if (*field == "unspecified" || field->empty())
      throw Error("roofline needs an explicit precision, accumulator and unit (got unspecified)");
  if (in.key.sparsity != "dense" && in.key.sparsity != "structured")
    throw Error("sparsity must be dense or structured");
  if (in.key.sparsity == "structured" && !in.sparse_eligible)
    throw Error("structured-sparsity peak requested without --sparse-eligible (the work must be 2:4 sparse)");
  if (in.flops < 1) throw Error("flops must be a positive integer");
  if (in.traffic_bytes < 1) throw Error("traffic-bytes must be a positive integer");
  double ce = check_efficiency(in.compute_efficiency, "compute-efficiency");
  double be = check_efficiency(in.bandwidth_efficiency, "bandwidth-efficiency");
  const Json* peak = find_peak(dev, in.key);
  if (!peak) throw Error("device " + in.device + " has no peak for " + describe(in.key));
  if (peak->value("operation_kind", "") != "floating_point")
    throw Error("peak " + describe(in.key) + " of " + in.device + " is not a floating-point rate");
  const Json& bw_json = dev["memory"]["bandwidth_bytes_per_second"];
  if (bw_json.is_null()) throw Error("device " + in.device + " has no memory bandwidth in the catalog");
  double P = (*peak)["tera_ops_per_second"].get<double>() * 1e12 * ce;
  double Bw = bw_json.get<double>() * be;
  double F = static_cast<double>(in.flops.value()), V = static_cast<double>(in.traffic_bytes.value());
  double compute = F / P, memory = V / Bw;
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "roofline";
  doc["model"] = in.device;
  doc["scenario"] = Json{{"device", in.device},
                         {"flops", in.flops.value()},
                         {"traffic_bytes", in.traffic_bytes.value()},
                         {"input_precision", in.key.input_precision},
                         {"accumulator_precision", in.key.accumulator_precision},
                         {"execution_unit", in.key.execution_unit},
                         {"sparsity", in.key.sparsity},
                         {"sparse_eligible", in.sparse_eligible},
                         {"compute_efficiency", ce},
                         {"bandwidth_efficiency", be}};
  doc["selected_peak"] = *peak;
  doc["sources"] = data.device_sources(dev);
  doc["resource_scope"] = dev.value("spec_scope", "single_device");
  doc["gpu_count"] = dev.contains("gpu_count") ? dev["gpu_count"] : Json(1);
  doc["npu_count"] = dev.contains("npu_count") ? dev["npu_count"] : Json(0);
  Json s = Json::object();
  s["arithmetic_intensity_flops_per_byte"] = true_div(in.flops, in.traffic_bytes);
  s["ridge_point_flops_per_byte"] = P / Bw;
  s["compute_service_seconds"] = compute;
  s["memory_service_seconds"] = memory;
  s["resource_time_lower_bound_seconds"] = std::max(compute, memory);
  s["throughput_upper_bound_flops_per_second"] = std::min(P, Bw * F / V);
  doc["summary"] = s;
  Json as = Json::array({
      "Peak is the vendor's rate for exactly this precision, accumulator, unit and sparsity; no other row is "
      "substituted.",
      "Compute and memory service overlap perfectly in this bound (max, not sum); efficiencies scale the "
      "peaks and are assumptions, not measurements.",
      "Traffic is the caller's declared bytes across the device memory interface; caches and tiling are not "
      "modelled.",
  });
  for (const auto& n : dev.value("notes", Json::array())) as.push_back(n);
  doc["assumptions"] = as;
  return doc;
}

Json projection_bound_document(const Data& data, const std::string& model, const std::string& device,
                               Int batch, Int tokens) {
  ModelDims d = model_dims(data.model(model));
  const Json& dev = data.device(device);
  if (batch < 1) throw Error("batch must be a positive integer");
  if (tokens < 1) throw Error("tokens must be a positive integer");
  if (dev.value("spec_scope", "single_device") != "single_device")
    throw Error("projection-bound uses single-device specs; " + device + " is " +
                dev.value("spec_scope", ""));
  PeakKey key;
  key.execution_unit = dev.value("vendor", "") == "Huawei" ? "cube" : "tensor";
  const Int M = batch * tokens, K = d.hidden, N = d.heads * d.head_dim;
  const Int A = Int(2) * M * K, W = Int(2) * K * N, Y = Int(2) * M * N, traffic = A + W + Y;
  const Int F = Int(2) * M * K * N;
  const Json* peak = find_peak(dev, key);
  if (peak && peak->value("operation_kind", "") != "floating_point") peak = nullptr;
  const Json& bw_json = dev["memory"]["bandwidth_bytes_per_second"];
  if (bw_json.is_null()) throw Error("device " + device + " has no memory bandwidth in the catalog");
  double Bw = bw_json.get<double>();
  double memory = static_cast<double>(traffic.value()) / Bw;

  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "q_projection_resource_bound";
  doc["model"] = model;
  doc["scenario"] = Json{{"device", device},
                         {"batch", batch.value()},
                         {"tokens", tokens.value()},
                         {"input_precision", key.input_precision},
                         {"accumulator_precision", key.accumulator_precision},
                         {"output_precision", "BF16"},
                         {"execution_unit", key.execution_unit},
                         {"sparsity", key.sparsity},
                         {"beta", 0}};
  doc["shapes"] = Json{{"A", {M.value(), K.value()}},
                       {"W_math", {K.value(), N.value()}},
                       {"W_storage", {N.value(), K.value()}},
                       {"Y", {M.value(), N.value()}}};
  doc["selected_peak"] = peak_or_null(peak);
  doc["unavailable_compute_reason"] =
      peak ? Json() : Json("the catalog has no " + describe(key) + " peak for " + device);
  Json s = Json::object();
  s["matrix_flops"] = F.value();
  s["input_read_bytes"] = A.value();
  s["weight_read_bytes"] = W.value();
  s["output_write_bytes"] = Y.value();
  s["cold_memory_payload_bytes"] = traffic.value();
  s["arithmetic_intensity_flops_per_byte"] = true_div(F, traffic);
  if (peak) {
    double P = (*peak)["tera_ops_per_second"].get<double>() * 1e12;
    double compute = static_cast<double>(F.value()) / P;
    s["compute_service_seconds"] = compute;
    s["memory_service_seconds"] = memory;
    s["roofline_lower_bound_seconds"] = std::max(compute, memory);
    s["ridge_point_flops_per_byte"] = P / Bw;
  } else {
    s["compute_service_seconds"] = nullptr;
    s["memory_service_seconds"] = memory;
    s["roofline_lower_bound_seconds"] = nullptr;
    s["ridge_point_flops_per_byte"] = nullptr;
  }
  doc["summary"] = s;
  Json as = Json::array({
      "One layer's Q projection GEMM only: M = batch x tokens, K = hidden_size, N = heads x head_dim (the Q "
      "width is not assumed equal to hidden_size).",
      "A, W and Y are BF16 with FP32 accumulation on chip and beta = 0; QK norm, RoPE, other layers and the "
      "output head are excluded.",
      "Cold-memory case: A and W start outside the device memory interface and Y is written back once; this "
      "is the service lower bound for that case, not a kernel prediction.",
      "Tile re-reads, layout, quantization, launch and achieved efficiency are not included.",
      "Without a matching peak only memory_service_seconds is kept and the bound is null; it is then not a "
      "roofline.",
      "Single-device specs only; capacity and whole-model residency are not checked by one GEMM.",
  });
  for (const auto& n : dev.value("notes", Json::array())) as.push_back(n);
  doc["assumptions"] = as;
  Json src = data.model_sources(model);
  for (auto& row : data.device_sources(dev)) src.push_back(row);
  doc["sources"] = src;
  return doc;
}

}  // namespace bb::calc
