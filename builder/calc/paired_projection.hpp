// `paired-projection-conditional-cost`: recorded batch-average times of the Qwen3-8B Q projection on an
// Apple GPU (MPS) and an RTX card (CUDA), and the per-call cost and energy proxies they give under
// declared hourly cost rates and whole-system watts, with the rate ratio at which the two tie.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "calc/data.hpp"
#include "calc/json.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {

struct PairedProjectionScenario {
  std::string model = "qwen3-8b";
  Json hourly_cost_units;   // null, or {"mps": rate, "cuda": rate}: integers or exact numeric strings
  Json whole_system_watts;  // likewise
  // The recorded median batch-average seconds and reported max abs error per (m, mode) and device.
  struct Timing {
    Rational mps, cuda;
    Json max_abs_error;  // {"mps": ..., "cuda": ...} as recorded
  };
  std::map<std::pair<std::int64_t, std::string>, Timing> timings;
  Json sources;        // the timing archive's lock rows
  Json model_sources;  // null: the model's rows from the source lock
};

Json paired_projection_document(const Data& data, const PairedProjectionScenario& in);
// The timings are the medians of the timing archive's trial averages when the book holds the archive;
// otherwise the medians the stored rows record are taken as the measured input. Everything derived
// from them is recomputed.
Json paired_projection_recompute(const Data& data, const Json& stored);

}  // namespace bb::calc
