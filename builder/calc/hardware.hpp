// Device peaks and the bounds built on them: catalog, roofline, one-GEMM projection bound.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// The exact (input precision, accumulator, unit, sparsity) key of a peak row.
struct PeakKey {
  std::string input_precision = "BF16";
  std::string accumulator_precision = "FP32";
  std::string execution_unit = "tensor";
  std::string sparsity = "dense";
};

// The device's peak row for exactly this key, or nullptr. Never a substitute from another key.
const Json* find_peak(const Json& device, const PeakKey& key);
std::string describe(const PeakKey& key);

struct RooflineInput {
  std::string device;
  Int flops = 0, traffic_bytes = 0;
  PeakKey key;
  bool sparse_eligible = false;
  double compute_efficiency = 1.0, bandwidth_efficiency = 1.0;
};

Json hardware_document(const Data& data, bool audit);

// Every audit problem of the catalog as (device id, message): duplicate keys, unlisted sources, and
// values that differ from what their source records (a peak's `reported` or `derivation`, the
// bandwidth quoted in the memory locator).
std::vector<std::pair<std::string, std::string>> audit_catalog(const Data& data);
Json roofline_document(const Data& data, const RooflineInput& in);
Json projection_bound_document(const Data& data, const std::string& model, const std::string& device,
                               Int batch, Int tokens);

// Checks shared by the commands: an efficiency or multiplier must be finite and in (0, 1].
double check_efficiency(double v, const char* name);

}  // namespace bb::calc
