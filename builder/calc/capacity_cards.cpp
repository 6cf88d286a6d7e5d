// `resource-basics` as the real book's results record it (capacity_cards, GB/GiB conversions, a link's
// startup + bandwidth time). Ported from the real book's calculations/src/infra_calc/topics/ (the module
// that writes calculation='resource-basics', bojieli/ai-infra-book). bookbuild's own `calc
// resource-basics` command (budget.cpp) writes an older, shorter document for the project's book.
#include <cmath>

#include "calc/calculations.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

// positive_number: a finite number > 0 (an integer stays an integer, as in Python).
const Json& positive_number(const Json& v, const char* what) {
  if (v.is_boolean() || !v.is_number() || (v.is_number_float() && !std::isfinite(v.get<double>())) ||
      v.get<double>() <= 0)
    throw Error(std::string(what) + " must be finite and positive, got " + v.dump());
  return v;
}

double as_double(const Json& v) {
  return v.is_number_integer() ? static_cast<double>(v.get<std::int64_t>()) : v.get<double>();
}

}  // namespace

Json capacity_cards_recompute(const Data&, const Json& stored) {
  const Json& s = recorded_scenario(stored);
  auto value = [&](const char* key, Json fallback) { return s.contains(key) ? s[key] : fallback; };
  const Int parameters = positive_int(value("parameters", 70000000000), "parameters");
  const Int cards = positive_int(value("cards", 2), "cards");
  const Int capacity = positive_int(value("card_capacity_bytes", 80000000000), "card_capacity_bytes");
  const Int link_bits = positive_int(value("link_bits_per_second", 400000000000), "link_bits_per_second");
  const Int messages = positive_int(value("messages", 1), "messages");
  const Int bits = positive_int(value("weight_bits", 16), "weight_bits");
  if (bits != Int(4) && bits != Int(8) && bits != Int(16) && bits != Int(32))
    throw Error("Teaching storage width must be 4, 8, 16 or 32 bits");
  const Int state = positive_int(value("state_bytes_per_card", 0), "state_bytes_per_card", true);
  const Int workspace = positive_int(value("workspace_bytes_per_card", 0), "workspace_bytes_per_card", true);
  const Int metadata = positive_int(value("metadata_bytes_per_card", 0), "metadata_bytes_per_card", true);
  const Json startup = positive_number(value("startup_seconds", 0.000003), "startup_seconds");
  const Json efficiency = positive_number(value("link_efficiency", 1.0), "link_efficiency");
  if (as_double(efficiency) > 1) throw Error("Link efficiency cannot exceed one");
  std::vector<Int> shards;
  if (s.contains("shard_parameters") && !s["shard_parameters"].is_null()) {
    shards = positive_int_list(s["shard_parameters"], "shard parameter count", true);
  } else {
    for (Int i = 0; i < cards; i += 1)
      shards.push_back(parameters / cards + (i < parameters % cards ? 1 : 0));
  }
  if (Int(static_cast<std::int64_t>(shards.size())) != cards)
    throw Error("One explicit parameter allocation is required per card");
  Int total = 0;
  for (Int c : shards) total += c;
  if (total != parameters) throw Error("Shards must conserve the nominal parameter count");
  Json rows = Json::array();
  Int weight_bytes = 0, occupied_total = 0;
  bool every_fits = true;
  Json shard_list = Json::array();
  for (std::size_t card = 0; card < shards.size(); ++card) {
    const Int packed = (shards[card] * bits + 7) / 8;
    const Int occupied = packed + metadata + state + workspace;
    weight_bytes += packed;
    occupied_total += occupied;
    every_fits = every_fits && occupied <= capacity;
    shard_list.push_back(shards[card].value());
    rows.push_back(Json{{"card", card},
                        {"parameters", shards[card].value()},
                        {"packed_weight_bytes", packed.value()},
                        {"metadata_bytes", metadata.value()},
                        {"state_bytes", state.value()},
                        {"workspace_bytes", workspace.value()},
                        {"occupied_bytes", occupied.value()},
                        {"capacity_bytes", capacity.value()},
                        {"headroom_bytes", (capacity - occupied).value()},
                        {"fits_declared_budget", occupied <= capacity}});
  }
  const Int payload = s.contains("payload_bytes") && !s["payload_bytes"].is_null()
                          ? positive_int(s["payload_bytes"], "payload_bytes", true)
                          : weight_bytes;
  const double raw = true_div(link_bits, Int(8));
  const double eff = as_double(efficiency);
  const double bandwidth_term = static_cast<double>(payload.value()) / (raw * eff);
  // messages × startup stays an integer when the startup is one, as in Python.
  const Json startup_term = startup.is_number_integer()
                                ? Json((messages * startup.get<std::int64_t>()).value())
                                : Json(static_cast<double>(messages.value()) * as_double(startup));
  const double startup_d = as_double(startup_term);
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "resource-basics";
  doc["model"] = "nominal-teaching-model";
  doc["scenario"] = Json{{"parameters", parameters.value()},
                         {"weight_bits", bits.value()},
                         {"cards", cards.value()},
                         {"card_capacity_bytes", capacity.value()},
                         {"state_bytes_per_card", state.value()},
                         {"workspace_bytes_per_card", workspace.value()},
                         {"metadata_bytes_per_card", metadata.value()},
                         {"shard_parameters", shard_list},
                         {"link_bits_per_second", link_bits.value()},
                         {"payload_bytes", payload.value()},
                         {"messages", messages.value()},
                         {"startup_seconds", startup},
                         {"link_efficiency", efficiency}};
  doc["sources"] = Json::array();
  doc["capacity_cards"] = rows;
  const Int aggregate = cards * capacity;
  const Int giga = 1000000000, gibi = std::int64_t{1} << 30;
  doc["summary"] = Json{{"weight_payload_bytes", weight_bytes.value()},
                        {"weight_payload_GB", true_div(weight_bytes, giga)},
                        {"weight_payload_GiB", true_div(weight_bytes, gibi)},
                        {"per_card_capacity_GB", true_div(capacity, giga)},
                        {"per_card_capacity_GiB", true_div(capacity, gibi)},
                        {"aggregate_capacity_bytes", aggregate.value()},
                        {"aggregate_occupied_bytes", occupied_total.value()},
                        {"aggregate_capacity_sufficient", occupied_total <= aggregate},
                        {"every_card_fits_declared_budget", every_fits},
                        {"raw_one_direction_bytes_per_second", raw},
                        {"raw_one_direction_GB_per_second", raw / 1e9},
                        {"raw_one_direction_GiB_per_second", raw / static_cast<double>(gibi.value())},
                        {"ideal_payload_service_seconds", static_cast<double>(payload.value()) / raw},
                        {"modeled_payload_service_seconds", bandwidth_term},
                        {"modeled_startup_seconds", startup_term},
                        {"modeled_serial_transfer_seconds", startup_d + bandwidth_term},
                        {"startup_bandwidth_crossover_payload_bytes", startup_d * raw * eff},
                        {"measured_transfer_seconds", nullptr}};
  doc["assumptions"] = Json::array({
      "Nominal parameters are a teaching count; GB = 10^9 bytes, GiB = 2^30 bytes. Packed bytes round up per "
      "card; shards are balanced (remainder on the first cards) unless given and must conserve the count.",
      "State, workspace and metadata are declared per-card reservations; aggregate capacity is necessary, "
      "never sufficient. Transfer time = messages x startup + payload / (link bits / 8 x efficiency).",
  });
  return doc;
}

}  // namespace bb::calc
