// `qwen-dense-communication-path`: the communication of one forward of a dense model placed with tensor
// parallelism (vocabulary-parallel embedding and head): per-layer ring all-reduces, the last-position logit
// all-gather and the selected-token broadcast, with bytes and startup + bandwidth time per operation.
// Ported from the real book's calculations/src/infra_calc/topics/dense_communication.py
// (bojieli/ai-infra-book). Its placement comes from dense_placement.py, which is not public in the index
// this port was made from: a single pipeline stage (pp = 1, every layer on stage 0) is computed; pp > 1 is
// refused rather than guessed, and the placement's checks are reduced to the one the reference relies on
// (whole attention heads per TP rank).
#include <functional>

#include "calc/calculations.hpp"
#include "calc/pynum.hpp"
#include "calc/recorded.hpp"

namespace bb::calc {

namespace {

struct CommInput {
  std::string model = "qwen3-8b";
  Int tp = 8, pp = 1, dp = 1, batch_per_replica = 1, tokens = 1, bandwidth = 50000000000, startup_ns = 2000,
      logit_element_bytes = 4;
};

CommInput read_input(const Json& stored) {
  CommInput in;
  if (stored.contains("model") && stored["model"].is_string()) in.model = stored["model"].get<std::string>();
  const Json& s = recorded_scenario(stored);
  auto get = [&](const char* key, Int& field, bool allow_zero) {
    if (s.contains(key)) field = positive_int(s[key], key, allow_zero);
  };
  get("tp", in.tp, false);
  get("pp", in.pp, false);
  get("dp", in.dp, false);
  get("batch_per_replica", in.batch_per_replica, false);
  get("tokens", in.tokens, false);
  get("bandwidth_bytes_per_second", in.bandwidth, false);
  get("startup_ns", in.startup_ns, true);
  get("logit_element_bytes", in.logit_element_bytes, false);
  return in;
}

Int config_int(const Json& c, const char* key) {
  return positive_int(member(c, key, "the model config"), key);
}

std::int64_t bit_length(std::int64_t v) {
  std::int64_t n = 0;
  for (; v > 0; v >>= 1) ++n;
  return n;
}

}  // namespace

Json dense_communication_recompute(const Data& base, const Json& stored) {
  const CommInput in = read_input(stored);
  require_input(base, "configs/models/" + in.model + "/config.json");
  const Data data = recompute_data(base, stored, in.model);
  const Json& c = data.model(in.model).config;
  const Int layers = config_int(c, "num_hidden_layers"), hidden = config_int(c, "hidden_size"),
            vocab = config_int(c, "vocab_size"), heads = config_int(c, "num_attention_heads");
  if (in.pp != Int(1))
    throw Error(
        "pp = " + std::to_string(in.pp.value()) +
        ": the dense placement's layer split across pipeline stages is not ported (dense_placement.py)");
  if ((heads % in.tp).value() != 0)
    throw Error("tp = " + std::to_string(in.tp.value()) + " does not divide the " +
                std::to_string(heads.value()) + " attention heads (whole heads per rank)");
  const Int activation = Int(2) * in.batch_per_replica * in.tokens * hidden;
  const Int logits = in.logit_element_bytes * in.batch_per_replica * vocab;
  const Int token_ids = Int(4) * in.batch_per_replica;
  const double alpha = static_cast<double>(in.startup_ns.value()) / 1e9;
  Json operations = Json::array();
  auto add = [&](const char* name, Int stage, Int rounds, Int network, Int bottleneck, const char* note,
                 Json layer) {
    const double startup = static_cast<double>(rounds.value()) * alpha;
    const double bandwidth = true_div(bottleneck, in.bandwidth);
    operations.push_back(Json{{"name", name},
                              {"stage", stage.value()},
                              {"layer", layer},
                              {"rounds", rounds.value()},
                              {"network_send_bytes_per_replica", network.value()},
                              {"critical_resource_bytes", bottleneck.value()},
                              {"startup_seconds", startup},
                              {"bandwidth_seconds", bandwidth},
                              {"modeled_seconds", startup + bandwidth},
                              {"notes", note}});
  };
  auto all_reduce = [&](const char* name, Int stage, Json layer) {
    if ((activation % in.tp).value() != 0) throw Error("Ring activation chunks must be integral bytes");
    const Int per_rank = Int(2) * (in.tp - 1) * (activation / in.tp);
    add(name, stage, Int(2) * (in.tp - 1), in.tp * per_rank, per_rank,
        "Full hidden activation M, ring RS+AG, independent directed edges.", std::move(layer));
  };
  all_reduce("vocabulary_embedding_reduce", 0, Json());
  for (std::int64_t layer = 0; layer < layers.value(); ++layer) {
    all_reduce("attention_output_reduce", 0, layer);
    all_reduce("ffn_output_reduce", 0, layer);
  }
  if ((logits % in.tp).value() != 0) throw Error("Vocabulary shards require integral logit bytes");
  const Int shard = logits / in.tp;
  add("last_position_logits_all_gather", in.pp - 1, in.tp - 1, in.tp * (in.tp - 1) * shard,
      (in.tp - 1) * shard,
      "Each last-stage TP rank starts with B×V/TP logits and gathers full B×V. Wire element size is "
      "explicit.",
      Json());
  const Int rounds = bit_length((in.tp - 1).value());
  add("selected_token_first_stage_broadcast", 0, rounds, (in.tp - 1) * token_ids, rounds * token_ids,
      "Unsegmented binomial broadcast of int32 IDs inside first-stage TP group; other stages receive hidden "
      "activations.",
      Json());
  Int total = 0, nonempty = 0;
  std::vector<double> serial, startup, bandwidth;
  for (const auto& op : operations) {
    const Int bytes = op["network_send_bytes_per_replica"].get<std::int64_t>();
    total += bytes;
    nonempty += bytes > Int(0) ? 1 : 0;
    serial.push_back(op["modeled_seconds"].get<double>());
    startup.push_back(op["startup_seconds"].get<double>());
    bandwidth.push_back(op["bandwidth_seconds"].get<double>());
  }
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = "qwen-dense-communication-path";
  doc["model"] = in.model;
  doc["scenario"] = Json{{"tp", in.tp.value()},
                         {"pp", in.pp.value()},
                         {"dp", in.dp.value()},
                         {"batch_per_replica", in.batch_per_replica.value()},
                         {"tokens", in.tokens.value()},
                         {"bandwidth_bytes_per_second", in.bandwidth.value()},
                         {"startup_ns", in.startup_ns.value()},
                         {"logit_element_bytes", in.logit_element_bytes.value()}};
  doc["sources"] = data.model_sources(in.model);
  doc["communication_operations"] = operations;
  doc["summary"] = Json{{"activation_bytes", activation.value()},
                        {"full_last_position_logit_bytes", logits.value()},
                        {"vocabulary_logit_shard_bytes", shard.value()},
                        {"selected_token_id_bytes", token_ids.value()},
                        {"nonempty_communication_operations", nonempty.value()},
                        {"network_send_bytes_per_replica", total.value()},
                        {"network_send_bytes_all_replicas", (in.dp * total).value()},
                        {"operation_stage_accounted_bytes", Json::array({total.value()})},
                        {"serial_communication_path_seconds", py_sum(serial)},
                        {"startup_seconds", py_sum(startup)},
                        {"bandwidth_seconds", py_sum(bandwidth)},
                        {"predicted_iteration_seconds", nullptr}};
  doc["assumptions"] = Json::array({
      "One forward plus the selected-token feedback for the next call; the vocabulary-parallel embedding "
      "needs an all-reduce besides the two output reductions per decoder layer.",
      "Only last-position logits are gathered; collectives and links are independent with the same "
      "one-direction bandwidth and startup; compute, overlap and queueing are not included.",
  });
  return doc;
}

}  // namespace bb::calc
