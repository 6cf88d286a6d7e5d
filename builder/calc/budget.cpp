// Decode budget and resource basics (see budget.hpp).
#include "calc/budget.hpp"

#include <algorithm>
#include <cmath>

#include "calc/error.hpp"
#include "calc/hardware.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {
namespace {
void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}
Int non_negative(Int v, const char* name) {
  require(v >= 0, std::string(name) + " must be zero or a positive integer");
  return v;
}
double positive_multiplier(double v, const char* name) {
  require(std::isfinite(v) && v > 0, std::string(name) + " must be a positive finite number");
  return v;
}
}  // namespace

Json decode_budget_document(const Data& data, const DecodeBudgetInput& in) {
  require(in.batch >= 1, "batch must be a positive integer");
  require(in.parameters >= 1, "parameters must be a positive integer");
  require(in.weight_bits == 4 || in.weight_bits == 8 || in.weight_bits == 16,
          "weight-bits must be 4, 8 or 16");
  non_negative(in.kv_history_bytes_per_request, "kv-history-bytes-per-request");
  non_negative(in.kv_append_bytes_per_request, "kv-append-bytes-per-request");
  non_negative(in.workspace_bytes, "workspace-bytes");
  non_negative(in.metadata_bytes, "metadata-bytes");
  double cm = positive_multiplier(in.compute_multiplier, "compute-multiplier");
  double bm = positive_multiplier(in.bandwidth_multiplier, "bandwidth-multiplier");
  const Json& dev = data.device(in.device);
  PeakKey key;
  const Json* peak = find_peak(dev, key);
  if (!peak) throw Error("device " + in.device + " has no " + describe(key) + " peak");
  const Json& bw = dev["memory"]["bandwidth_bytes_per_second"];
  if (bw.is_null()) throw Error("device " + in.device + " has no memory bandwidth");
  const double P = (*peak)["tera_ops_per_second"].get<double>() * 1e12 * cm;
  const double Bw = bw.get<double>() * bm;
  const Int capacity = Int(dev["memory"]["nominal_capacity"].get<std::int64_t>()) * 1000000000;
  const Int N = in.parameters, B = in.batch;
  const Int weights = (N * in.weight_bits + 7) / 8;
  const Int shared = weights + in.metadata_bytes;
  const Int per_req = in.kv_history_bytes_per_request + in.kv_append_bytes_per_request;
  const Int traffic = shared + B * per_req;
  const Int resident = traffic + in.workspace_bytes;
  const Int flops = Int(2) * N * B;
  const double compute = static_cast<double>(flops.value()) / P;
  const double memory = static_cast<double>(traffic.value()) / Bw;
  const bool fits = resident <= capacity;
  const double den =
      static_cast<double>((Int(2) * N).value()) * Bw / P - static_cast<double>(per_req.value());
  Json crossover, crossover_fits;
  if (den > 0) {
    double c = std::ceil(static_cast<double>(shared.value()) / den);
    Int cb = std::max<std::int64_t>(1, static_cast<std::int64_t>(c));
    crossover = cb.value();
    crossover_fits = shared + cb * per_req + in.workspace_bytes <= capacity;
  }
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "nominal-decode-budget";
  doc["model"] = "nominal-70b-teaching-model";
  doc["scenario"] = Json{{"batch", B.value()},
                         {"parameters", N.value()},
                         {"weight_bits", in.weight_bits.value()},
                         {"kv_history_bytes_per_request", in.kv_history_bytes_per_request.value()},
                         {"kv_append_bytes_per_request", in.kv_append_bytes_per_request.value()},
                         {"workspace_bytes", in.workspace_bytes.value()},
                         {"metadata_bytes", in.metadata_bytes.value()},
                         {"compute_multiplier", cm},
                         {"bandwidth_multiplier", bm},
                         {"device", in.device},
                         {"compute_input", key.input_precision},
                         {"accumulator", key.accumulator_precision},
                         {"sparsity", key.sparsity}};
  doc["sources"] = data.device_sources(dev);
  doc["selected_peak"] = *peak;
  Json s = Json::object();
  s["matrix_flops"] = flops.value();
  s["weight_payload_bytes"] = weights.value();
  s["declared_read_write_bytes"] = traffic.value();
  s["declared_resident_bytes"] = resident.value();
  s["nominal_capacity_bytes"] = capacity.value();
  s["fits_declared_budget"] = fits;
  s["arithmetic_intensity_flops_per_byte"] = true_div(flops, traffic);
  s["compute_service_seconds"] = compute;
  s["memory_service_seconds"] = memory;
  double bound = std::max(compute, memory);
  s["resource_lower_bound_seconds"] = fits ? Json(bound) : Json();
  s["capacity_feasible_throughput_upper_tokens_per_second"] =
      fits ? Json(static_cast<double>(B.value()) / bound) : Json();
  s["compute_memory_crossover_batch"] = crossover;
  s["crossover_fits_declared_capacity"] = crossover_fits;
  s["dominant_resource"] = memory >= compute ? "memory" : "compute";
  s["measured_decode_seconds"] = nullptr;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "N nominal parameters give 2*N*B dense matrix FLOPs per decode step; no architecture, attention or "
      "output-head detail is modelled (forward and projection-bound do that).",
      "The device's BF16-input / FP32-accumulate / dense tensor peak is used strictly; 4- and 8-bit weights "
      "are "
      "assumed dequantized to BF16 operands, and conversion work is not counted.",
      "Weights and metadata are read once per step and shared by the batch; each request reads its declared "
      "KV history and writes its append once.",
      "The resident budget is weights + metadata + end-of-step KV + workspace against the nominal capacity "
      "(GB = 1e9 bytes); runtime reservations belong in workspace.",
      "Compute and memory overlap in the bound (max, not sum); when the budget does not fit, the bound and "
      "throughput are null while the components stay visible.",
      "Multipliers are hypothetical changes to the official profile, not other products. The crossover batch "
      "solves shared + B*KV = B*2N*bandwidth/compute; no positive denominator means never compute-bound.",
      "Padding, launch, communication, non-matrix arithmetic and measured efficiency are excluded.",
  });
  return doc;
}

Json resource_basics_document(const ResourceBasicsInput& in) {
  require(in.parameters >= 1, "parameters must be a positive integer");
  require(in.weight_bits >= 1, "weight-bits must be a positive integer");
  require(in.cards >= 1, "cards must be a positive integer");
  require(in.card_capacity_bytes >= 1, "card-capacity-bytes must be a positive integer");
  non_negative(in.state_bytes_per_card, "state-bytes-per-card");
  non_negative(in.workspace_bytes_per_card, "workspace-bytes-per-card");
  non_negative(in.metadata_bytes_per_card, "metadata-bytes-per-card");
  require(in.messages >= 1, "messages must be a positive integer");
  require(std::isfinite(in.link_bits_per_second) && in.link_bits_per_second > 0,
          "link-bits-per-second must be a positive finite number");
  require(std::isfinite(in.startup_seconds) && in.startup_seconds >= 0,
          "startup-seconds must be zero or a positive finite number");
  const double eff = check_efficiency(in.link_efficiency, "link-efficiency");
  std::vector<Int> shards;
  if (in.shard_parameters) {
    shards = *in.shard_parameters;
    require(Int(static_cast<std::int64_t>(shards.size())) == in.cards,
            "shard-parameters lists " + std::to_string(shards.size()) + " cards, expected " +
                std::to_string(in.cards.value()));
    Int total = 0;
    for (Int c : shards) {
      require(c >= 0, "shard-parameters entries must be zero or positive");
      total += c;
    }
    require(total == in.parameters, "shard-parameters sum to " + std::to_string(total.value()) +
                                        ", expected parameters = " + std::to_string(in.parameters.value()));
  } else {
    Int q = in.parameters / in.cards, r = in.parameters % in.cards;
    for (Int i = 0; i < in.cards; i += 1) shards.push_back(q + (i < r ? 1 : 0));
  }
  Json cards = Json::array();
  Int total_packed = 0;
  bool each_fits = true;
  for (size_t i = 0; i < shards.size(); ++i) {
    Int packed = (shards[i] * in.weight_bits + 7) / 8;
    Int occupied =
        packed + in.metadata_bytes_per_card + in.state_bytes_per_card + in.workspace_bytes_per_card;
    total_packed += packed;
    bool fits = occupied <= in.card_capacity_bytes;
    each_fits = each_fits && fits;
    cards.push_back(Json{{"card", i},
                         {"parameters", shards[i].value()},
                         {"packed_weight_bytes", packed.value()},
                         {"occupied_bytes", occupied.value()},
                         {"capacity_bytes", in.card_capacity_bytes.value()},
                         {"headroom_bytes", (in.card_capacity_bytes - occupied).value()},
                         {"fits", fits}});
  }
  const Int aggregate = in.card_capacity_bytes * in.cards;
  Int aggregate_occupied = 0;
  for (const auto& c : cards) aggregate_occupied += Int(c["occupied_bytes"].get<std::int64_t>());
  const Int payload = in.payload_bytes ? *in.payload_bytes : total_packed;
  require(payload >= 0, "payload-bytes must be zero or a positive integer");
  const double raw = in.link_bits_per_second / 8;
  const double bandwidth_s = static_cast<double>(payload.value()) / (raw * eff);
  const double startup = static_cast<double>(in.messages.value()) * in.startup_seconds;
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "resource-basics";
  doc["model"] = "nominal-parameter-count";
  doc["scenario"] = Json{{"parameters", in.parameters.value()},
                         {"weight_bits", in.weight_bits.value()},
                         {"cards", in.cards.value()},
                         {"card_capacity_bytes", in.card_capacity_bytes.value()},
                         {"state_bytes_per_card", in.state_bytes_per_card.value()},
                         {"workspace_bytes_per_card", in.workspace_bytes_per_card.value()},
                         {"metadata_bytes_per_card", in.metadata_bytes_per_card.value()},
                         {"link_bits_per_second", in.link_bits_per_second},
                         {"messages", in.messages.value()},
                         {"payload_bytes", in.payload_bytes ? Json(in.payload_bytes->value()) : Json()},
                         {"shard_parameters", in.shard_file.empty() ? Json() : Json(in.shard_file)},
                         {"startup_seconds", in.startup_seconds},
                         {"link_efficiency", eff}};
  doc["cards"] = cards;
  Json s = Json::object();
  s["total_packed_weight_bytes"] = total_packed.value();
  s["total_packed_weight_gib"] = true_div(total_packed, Int(std::int64_t{1} << 30));
  s["aggregate_capacity_bytes"] = aggregate.value();
  s["aggregate_occupied_bytes"] = aggregate_occupied.value();
  s["fits_aggregate_capacity"] = aggregate_occupied <= aggregate;
  s["fits_each_card"] = each_fits;
  s["link_bytes_per_second"] = raw;
  s["effective_link_bytes_per_second"] = raw * eff;
  s["payload_bytes"] = payload.value();
  s["bandwidth_seconds"] = bandwidth_s;
  s["startup_seconds_total"] = startup;
  s["serial_transfer_seconds"] = bandwidth_s + startup;
  s["startup_bandwidth_crossover_bytes"] = in.startup_seconds * raw * eff;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Weights are packed at weight_bits per parameter and rounded up to whole bytes per card; shards are "
      "balanced with the remainder on the first cards unless given.",
      "A card fits when packed weights + metadata + state + workspace <= its nominal capacity; aggregate "
      "capacity alone does not prove a placement.",
      "Transfer time = messages x startup + payload / (link bits / 8 x efficiency): one link, no contention, "
      "no protocol overhead beyond the efficiency factor.",
  });
  return doc;
}

}  // namespace bb::calc
