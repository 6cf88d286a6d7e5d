// Ring and tree all-reduce schedules and MoE all-to-all payloads (see collectives.hpp).
#include "calc/collectives.hpp"

#include <algorithm>

#include "calc/error.hpp"
#include "calc/model.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {
namespace {

struct Message {
  ModelDims dims;
  Int elements, bytes;
};

Message tp_message(const Data& data, const CollectiveInput& in, const char* command) {
  ModelDims d = model_dims(data.model(in.model));
  if (d.adapter != Adapter::Qwen3Dense)
    throw Error(std::string(command) + " models the Qwen3 dense tensor-parallel path; " + in.model + " is " +
                d.model_type);
  if (in.batch < 1) throw Error("batch must be a positive integer");
  if (in.tokens < 1) throw Error("tokens must be a positive integer");
  if (in.participants < 1) throw Error("participants must be a positive integer");
  if (in.bandwidth_bytes_per_second < 1) throw Error("bandwidth-bytes-per-second must be a positive integer");
  if (in.startup_ns < 0) throw Error("startup-ns must be zero or a positive integer");
  Int elements = in.batch * in.tokens * d.hidden;
  return {d, elements, Int(2) * elements};
}

Json scenario_json(const CollectiveInput& in, const char* algorithm) {
  Json s = Json{{"batch", in.batch.value()},
                {"tokens", in.tokens.value()},
                {"participants", in.participants.value()},
                {"bandwidth_bytes_per_second", in.bandwidth_bytes_per_second.value()},
                {"startup_ns", in.startup_ns.value()},
                {"message_dtype", "BF16"},
                {"message_scope", "full activation per rank for all-reduce"}};
  if (algorithm) s["algorithm"] = algorithm;
  return s;
}

double seconds(Int ns) {
  return true_div(ns, Int(1000000000));
}

// The keys every collective document opens with, in the order the reference outputs print them.
Json document_start(const Data& data, const char* calculation, const std::string& model, Json scenario) {
  Json doc = Json::object();
  doc["schema_version"] = 1;
  doc["calculation"] = calculation;
  doc["model"] = model;
  doc["scenario"] = std::move(scenario);
  doc["sources"] = data.model_sources(model);
  return doc;
}

// The all-reduce summaries (ring and tree) share their first and last keys.
Json summary_start(const CollectiveInput& in, const Message& msg) {
  Json s = Json::object();
  s["activation_shape"] = {(in.batch * in.tokens).value(), msg.dims.hidden.value()};
  s["message_bytes_per_rank"] = msg.bytes.value();
  return s;
}

void finish_summary(Json& s, double startup, double bandwidth, double modeled, Int layers) {
  s["all_reduce_startup_seconds"] = startup;
  s["all_reduce_bandwidth_seconds"] = bandwidth;
  s["all_reduce_modeled_seconds"] = modeled;
  s["dense_tp_all_reduce_calls"] = (Int(2) * layers).value();
  s["dense_tp_serial_collective_seconds"] = static_cast<double>((Int(2) * layers).value()) * modeled;
  s["measured_collective_seconds"] = nullptr;
}

}  // namespace

Json ring_collective_document(const Data& data, const CollectiveInput& in) {
  Message msg = tp_message(data, in, "ring-collective");
  const Int p = in.participants, M = msg.bytes, L = msg.dims.layers;
  if ((msg.elements % p).value() != 0)
    throw Error("ring-collective needs B*T*hidden = " + std::to_string(msg.elements.value()) +
                " elements divisible by participants = " + std::to_string(p.value()));
  const Int chunk = M / p;
  const Int phase_send = (p - 1) * chunk;
  const Int bw = in.bandwidth_bytes_per_second;
  const double phase_time = seconds((p - 1) * in.startup_ns) + true_div(phase_send, bw);

  Json rounds = Json::array();
  for (const char* phase : {"reduce_scatter", "all_gather"}) {
    const Int shift = std::string(phase) == "all_gather" ? 1 : 0;
    for (Int step = 0; step < p - 1; step += 1) {
      Json edges = Json::array();
      for (Int r = 0; r < p; r += 1)
        edges.push_back(Json{{"sender", r.value()},
                             {"receiver", ((r + 1) % p).value()},
                             {"chunk", ((r - step + shift) % p).value()},
                             {"bytes", chunk.value()}});
      rounds.push_back(Json{{"phase", phase}, {"step", step.value()}, {"edges", edges}});
    }
  }
  auto phase = [&](const char* name, Int initial, Int final_bytes, Int adds) {
    return Json{{"name", name},
                {"rounds", (p - 1).value()},
                {"initial_bytes_per_rank", initial.value()},
                {"final_bytes_per_rank", final_bytes.value()},
                {"send_bytes_per_rank", phase_send.value()},
                {"receive_bytes_per_rank", phase_send.value()},
                {"total_network_send_bytes", (p * phase_send).value()},
                {"reduction_adds_per_rank", adds.value()},
                {"modeled_seconds", phase_time}};
  };
  Json phases =
      Json::array({phase("reduce_scatter", M, chunk, phase_send / 2), phase("all_gather", chunk, M, 0)});
  const double modeled = 2 * phase_time;
  Json s = summary_start(in, msg);
  s["chunk_bytes"] = chunk.value();
  s["all_reduce_rounds"] = (Int(2) * (p - 1)).value();
  s["all_reduce_send_bytes_per_rank"] = (Int(2) * phase_send).value();
  s["all_reduce_receive_bytes_per_rank"] = (Int(2) * phase_send).value();
  s["all_reduce_network_send_bytes"] = (Int(2) * p * phase_send).value();
  s["all_reduce_global_reduction_adds"] = ((p - 1) * msg.elements).value();
  finish_summary(s, seconds(Int(2) * (p - 1) * in.startup_ns), true_div(Int(2) * phase_send, bw), modeled, L);
  Json doc = document_start(data, "qwen-ring-collective", in.model, scenario_json(in, nullptr));
  doc["ring_rounds"] = rounds;
  doc["collective_phases"] = phases;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Each rank holds a BF16 [B*T, hidden] partial output; two row-parallel output all-reduces per layer is "
      "an explicit basic tensor-parallel assumption, not every backend's implementation.",
      "Reduce-scatter starts from the full M bytes per rank and ends with M/p reduced bytes; all-gather goes "
      "back from M/p to M.",
      "Every round sends one chunk to the next rank; after reduce-scatter rank r owns chunk (r+1) mod p. p=1 "
      "is an identity with no communication.",
      "Per-rank sent and received bytes are separate counters; network payload counts each send once. "
      "Physical hops, shared links and staging need a topology model.",
      "Time assumes simultaneous independent directed edges, one startup per round and one-direction "
      "effective bandwidth; reduction compute, launch, contention and overlap are not included.",
      "Reduction adds are logical element additions, not tensor FLOPs.",
      "The serial 2L-call total deliberately excludes overlap and fusion.",
  });
  return doc;
}

Json tree_collective_document(const Data& data, const CollectiveInput& in) {
  Message msg = tp_message(data, in, "tree-collective");
  const Int p = in.participants, M = msg.bytes, L = msg.dims.layers;
  struct Edge {
    Int from, to;
  };
  std::vector<std::pair<Int, std::vector<Edge>>> reduce;  // (stride, edges into the lower rank)
  for (Int stride = 1; stride < p; stride = stride * 2) {
    std::vector<Edge> edges;
    for (Int b = 0; b < p; b += Int(2) * stride)
      if (b + stride < p) edges.push_back({b + stride, b});
    reduce.emplace_back(stride, edges);
  }
  const auto n = static_cast<size_t>(p.value());
  std::vector<Int> sent(n, 0), received(n, 0), adds(n, 0);
  Json rounds = Json::array();
  Int index = 0;
  auto emit = [&](const char* phase, Int stride, const std::vector<Edge>& edges, bool broadcast) {
    Json list = Json::array();
    for (const auto& e : edges) {
      Int from = broadcast ? e.to : e.from, to = broadcast ? e.from : e.to;
      list.push_back(Json{{"sender", from.value()}, {"receiver", to.value()}, {"bytes", M.value()}});
      sent[static_cast<size_t>(from.value())] += M;
      received[static_cast<size_t>(to.value())] += M;
      if (!broadcast) adds[static_cast<size_t>(to.value())] += msg.elements;
    }
    rounds.push_back(
        Json{{"phase", phase}, {"round", index.value()}, {"stride", stride.value()}, {"edges", list}});
    index += 1;
  };
  for (const auto& [stride, edges] : reduce) emit("reduce", stride, edges, false);
  for (auto it = reduce.rbegin(); it != reduce.rend(); ++it) emit("broadcast", it->first, it->second, true);
  const Int per_phase = Int(static_cast<std::int64_t>(reduce.size()));
  const Int total_rounds = Int(2) * per_phase;
  Int network = 0, max_send = 0, max_recv = 0, total_adds = 0;
  Json ranks = Json::array();
  for (size_t r = 0; r < n; ++r) {
    network += sent[r];
    max_send = max(max_send, sent[r]);
    max_recv = max(max_recv, received[r]);
    total_adds += adds[r];
    ranks.push_back(Json{{"rank", r},
                         {"send_bytes", sent[r].value()},
                         {"receive_bytes", received[r].value()},
                         {"reduction_adds", adds[r].value()}});
  }
  const double latency = seconds(total_rounds * in.startup_ns);
  const double transfer = true_div(total_rounds * M, in.bandwidth_bytes_per_second);
  const double modeled = latency + transfer;
  Json s = summary_start(in, msg);
  s["reduce_rounds"] = per_phase.value();
  s["broadcast_rounds"] = per_phase.value();
  s["all_reduce_rounds"] = total_rounds.value();
  s["all_reduce_network_send_bytes"] = network.value();
  s["max_rank_send_bytes"] = max_send.value();
  s["max_rank_receive_bytes"] = max_recv.value();
  s["all_reduce_global_reduction_adds"] = total_adds.value();
  finish_summary(s, latency, transfer, modeled, L);
  Json doc = document_start(data, "qwen-tree-collective", in.model, scenario_json(in, "binomial_tree"));
  doc["tree_rounds"] = rounds;
  doc["ranks"] = ranks;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Unsegmented binomial reduce to rank 0 followed by the mirrored broadcast; every edge carries the full "
      "M-byte message.",
      "The network total is 2(p-1)M bytes, the same as the ring; the tree trades fewer, larger rounds for "
      "a rank-0 hotspot.",
      "Time = rounds x startup + rounds x M / bandwidth: rounds are serial, edges within a round are "
      "simultaneous; reduction compute and contention are not included.",
  });
  return doc;
}

Json all_to_all_document(const Data& data, const AllToAllInput& in) {
  ModelDims d = model_dims(data.model(in.model));
  if (d.adapter != Adapter::Qwen3Moe)
    throw Error("all-to-all needs an MoE model; " + in.model + " is dense (" + d.model_type + ")");
  if (in.tokens_per_rank < 1) throw Error("tokens-per-rank must be a positive integer");
  if (in.participants < 1) throw Error("participants must be a positive integer");
  const Int p = in.participants, T = in.tokens_per_rank, E = d.experts, K = d.top_k;
  if ((E % p).value() != 0)
    throw Error("experts (" + std::to_string(E.value()) + ") must divide evenly over participants (" +
                std::to_string(p.value()) + ")");
  const Int per_rank = E / p;
  const auto n = static_cast<size_t>(p.value());
  std::vector<std::vector<Int>> counts;
  if (in.routing == "counts") {
    if (!in.counts) throw Error("routing counts needs --counts FILE");
    counts = *in.counts;
    if (counts.size() != n) throw Error("counts file must list one row per participant");
    for (const auto& row : counts) {
      if (Int(static_cast<std::int64_t>(row.size())) != E)
        throw Error("each counts row must list " + std::to_string(E.value()) + " experts");
      Int sum = 0;
      for (Int c : row) {
        if (c < 0 || c > T) throw Error("each expert count must be between 0 and tokens-per-rank");
        sum += c;
      }
      if (sum != T * K) throw Error("each counts row must sum to tokens-per-rank x top_k");
    }
  } else if (in.routing == "balanced" || in.routing == "hotspot") {
    if (in.counts) throw Error("--counts applies only with --routing counts");
    for (size_t r = 0; r < n; ++r) {
      std::vector<Int> row;
      Int q = T * K / E, rem = T * K % E;
      for (Int e = 0; e < E; e += 1)
        row.push_back(in.routing == "balanced" ? q + (e < rem ? 1 : 0) : (e < K ? T : Int(0)));
      counts.push_back(row);
    }
  } else {
    throw Error("routing must be balanced, hotspot or counts");
  }
  const Int row_bytes = Int(2) * d.hidden;
  std::vector<std::vector<Int>> matrix(n, std::vector<Int>(n, 0));
  for (size_t src = 0; src < n; ++src)
    for (Int e = 0; e < E; e += 1)
      matrix[src][static_cast<size_t>((e / per_rank).value())] +=
          counts[src][static_cast<size_t>(e.value())] * row_bytes;
  Int network = 0, local = 0, max_send = 0, max_recv = 0;
  Json ranks = Json::array();
  Json mat = Json::array();
  for (size_t r = 0; r < n; ++r) {
    Int send = 0, recv = 0;
    Json row = Json::array();
    for (size_t c = 0; c < n; ++c) {
      row.push_back(matrix[r][c].value());
      if (c != r) {
        send += matrix[r][c];
        recv += matrix[c][r];
      }
    }
    mat.push_back(row);
    local += matrix[r][r];
    network += send;
    max_send = max(max_send, send);
    max_recv = max(max_recv, recv);
    ranks.push_back(Json{{"rank", r},
                         {"dispatch_send_bytes", send.value()},
                         {"dispatch_receive_bytes", recv.value()},
                         {"local_bytes", matrix[r][r].value()}});
  }
  Json s = Json::object();
  s["experts"] = E.value();
  s["experts_per_rank"] = per_rank.value();
  s["top_k"] = K.value();
  s["assignments_per_rank"] = (T * K).value();
  s["bytes_per_assignment"] = row_bytes.value();
  s["dispatch_network_bytes"] = network.value();
  s["dispatch_local_bytes"] = local.value();
  s["max_rank_dispatch_send_bytes"] = max_send.value();
  s["max_rank_dispatch_receive_bytes"] = max_recv.value();
  s["mean_rank_dispatch_receive_bytes"] = true_div(network, p);
  s["receive_imbalance"] = network > 0 ? Json(true_div(max_recv * p, network)) : Json();
  s["combine_network_bytes"] = network.value();
  s["layer_network_bytes"] = (Int(2) * network).value();
  s["moe_layers"] = d.layers.value();
  s["all_layers_network_bytes"] = (Int(2) * network * d.layers).value();
  Json doc = document_start(data, "moe-all-to-all", in.model,
                            Json{{"tokens_per_rank", T.value()},
                                 {"participants", p.value()},
                                 {"routing", in.routing},
                                 {"counts_file", in.counts_file.empty() ? Json() : Json(in.counts_file)},
                                 {"element_bytes", 2}});
  doc["ranks"] = ranks;
  doc["dispatch_matrix_bytes"] = mat;
  doc["summary"] = s;
  doc["assumptions"] = Json::array({
      "Experts are placed contiguously, experts/participants per rank; every (token, expert) assignment "
      "sends one BF16 hidden row to the expert's rank and the combine returns it.",
      "Balanced spreads each rank's tokens*top_k assignments evenly over all experts; hotspot sends every "
      "token to the first top_k experts (all on rank 0 when they fit there).",
      "No deduplication of a token sent to several experts on the same rank, no capacity factor or token "
      "dropping; payload only, no timing.",
  });
  return doc;
}

}  // namespace bb::calc
