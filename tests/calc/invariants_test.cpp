// Properties that must hold on every input, checked over many generated cases.
#include <gtest/gtest.h>

#include <random>

#include "calc/collectives.hpp"
#include "calc/command.hpp"
#include "calc/forward.hpp"
#include "calc/model.hpp"
#include "calc/sequence.hpp"
#include "support.hpp"

using bb::calc::Int;
using bb::calc::Json;

namespace {

std::int64_t get(const Json& doc, const char* key) {
  return doc["summary"][key].get<std::int64_t>();
}

Json forward(const std::string& model, Json args) {
  args["model"] = model;
  return bb::calc::run_command(calc_test::data(), "forward", args, ".");
}

const char* kModels[] = {"qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
                         "deepseek-r1-distill-llama-70b"};

}  // namespace

TEST(Invariants, SplittingAPrefillConservesMatrixFlopsAndKvBytes) {
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 60; ++i) {
    std::string model = kModels[i % 5];
    std::int64_t B = 1 + rng() % 4, S = rng() % 3000, T = 2 + rng() % 3000, T1 = 1 + rng() % (T - 1);
    // Head "none": a split prefill evaluates lm_head on neither part; "all" splits its rows too.
    for (const char* head : {"none", "all"}) {
      SCOPED_TRACE(model + " B=" + std::to_string(B) + " S=" + std::to_string(S) + " T=" + std::to_string(T) +
                   " T1=" + std::to_string(T1) + " head=" + head);
      Json whole = forward(model, {{"batch", B}, {"history", S}, {"tokens", T}, {"output_head", head}});
      Json a = forward(model, {{"batch", B}, {"history", S}, {"tokens", T1}, {"output_head", head}});
      Json b = forward(model, {{"batch", B}, {"history", S + T1}, {"tokens", T - T1}, {"output_head", head}});
      EXPECT_EQ(get(whole, "matrix_flops"), get(a, "matrix_flops") + get(b, "matrix_flops"));
      EXPECT_EQ(get(whole, "causal_attention_matrix_flops"),
                get(a, "causal_attention_matrix_flops") + get(b, "causal_attention_matrix_flops"));
      EXPECT_EQ(get(whole, "kv_new_write_bytes"),
                get(a, "kv_new_write_bytes") + get(b, "kv_new_write_bytes"));
      EXPECT_EQ(get(whole, "kv_resident_after_bytes"), get(b, "kv_resident_after_bytes"));
      EXPECT_EQ(get(a, "kv_resident_after_bytes"), get(b, "kv_resident_before_bytes"));
    }
  }
}

TEST(Invariants, GenerateEqualsTheSumOfSingleTokenForwards) {
  std::mt19937_64 rng(7);
  const char* dense[] = {"qwen3-8b", "qwen3-32b", "deepseek-r1-distill-llama-70b"};
  for (int i = 0; i < 12; ++i) {
    std::string model = dense[i % 3];
    std::int64_t B = 1 + rng() % 8, S = rng() % 5000, G = 1 + rng() % 64;
    SCOPED_TRACE(model + " B=" + std::to_string(B) + " S=" + std::to_string(S) + " G=" + std::to_string(G));
    Json gen = bb::calc::generate_document(calc_test::data(), model, B, S, G);
    std::int64_t matrix = 0, scalar = 0, read = 0, write = 0, kv_history = 0, weights = 0;
    for (std::int64_t step = 0; step < G; ++step) {
      Json f = forward(model, {{"batch", B}, {"history", S + step}, {"tokens", 1}});
      matrix += get(f, "matrix_flops");
      scalar += get(f, "scalar_flops");
      read += get(f, "activation_operand_read_bytes");
      write += get(f, "activation_operand_write_bytes");
      kv_history += get(f, "kv_existing_history_unique_payload_bytes");
      weights += get(f, "weight_read_once_per_operator_bytes");
    }
    EXPECT_EQ(get(gen, "matrix_flops"), matrix);
    EXPECT_EQ(get(gen, "scalar_flops"), scalar);
    EXPECT_EQ(get(gen, "activation_operand_read_bytes"), read);
    EXPECT_EQ(get(gen, "activation_operand_write_bytes"), write);
    EXPECT_EQ(get(gen, "kv_existing_history_read_bytes"), kv_history);
    EXPECT_EQ(get(gen, "weight_read_once_per_step_bytes"), weights);
  }
}

TEST(Invariants, RingAndTreeMoveTheSameTwoPMinusOneTimesMBytes) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 80; ++i) {
    bb::calc::CollectiveInput in;
    in.model = i % 2 ? "qwen3-8b" : "qwen3-32b";
    in.participants = 1 + static_cast<std::int64_t>(rng() % 16);
    in.tokens = in.participants * (1 + static_cast<std::int64_t>(rng() % 64));  // divisible for the ring
    in.batch = 1 + static_cast<std::int64_t>(rng() % 3);
    Json ring = bb::calc::ring_collective_document(calc_test::data(), in);
    Json tree = bb::calc::tree_collective_document(calc_test::data(), in);
    std::int64_t M = get(ring, "message_bytes_per_rank");
    std::int64_t expect = 2 * (in.participants.value() - 1) * M;
    EXPECT_EQ(get(ring, "all_reduce_network_send_bytes"), expect);
    EXPECT_EQ(get(tree, "all_reduce_network_send_bytes"), expect);
    EXPECT_EQ(get(ring, "all_reduce_global_reduction_adds"), get(tree, "all_reduce_global_reduction_adds"));
    std::int64_t edges = 0;
    for (const auto& r : tree["tree_rounds"]) edges += static_cast<std::int64_t>(r["edges"].size());
    EXPECT_EQ(edges, 2 * (in.participants.value() - 1));
  }
}

TEST(Invariants, BalancedAndConcentratedRoutingSameFlopsDifferentPayload) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 30; ++i) {
    std::string model = i % 2 ? "qwen3-30b-a3b" : "qwen3-235b-a22b";
    std::int64_t B = 1 + rng() % 64, S = rng() % 4000, T = 1 + rng() % 4;
    Json args = {{"batch", B}, {"history", S}, {"tokens", T}};
    Json bal = forward(model, [&] {
      Json a = args;
      a["routing"] = "balanced";
      return a;
    }());
    Json con = forward(model, [&] {
      Json a = args;
      a["routing"] = "concentrated";
      return a;
    }());
    EXPECT_EQ(get(bal, "matrix_flops"), get(con, "matrix_flops"));
    EXPECT_EQ(get(bal, "routed_expert_matrix_flops"), get(con, "routed_expert_matrix_flops"));
    EXPECT_EQ(get(con, "expert_union_per_layer"), 8);
    if (B * T * 8 > 8) {
      EXPECT_GT(get(bal, "routed_expert_unique_weight_payload_bytes"),
                get(con, "routed_expert_unique_weight_payload_bytes"));
    }
  }
}

TEST(Invariants, ExplicitRoutingCountsKeepFlopsAndCountTheUnion) {
  std::mt19937_64 rng(11);
  const bb::calc::ModelDims d = bb::calc::model_dims(calc_test::data().model("qwen3-30b-a3b"));
  for (int i = 0; i < 20; ++i) {
    bb::calc::ForwardScenario s;
    s.batch = 1;
    s.tokens = 1 + static_cast<std::int64_t>(rng() % 200);
    s.history = 0;
    bb::calc::Routing r;
    r.mode = "counts";
    r.counts.assign(128, 0);
    std::int64_t left = s.tokens.value() * 8;
    while (left > 0) {  // scatter assignments, each expert at most T
      auto e = static_cast<size_t>(rng() % 128);
      if (r.counts[e] < s.tokens) {
        r.counts[e] += 1;
        --left;
      }
    }
    std::int64_t used = 0;
    for (Int c : r.counts) used += c > 0 ? 1 : 0;
    auto got = bb::calc::compute_forward(d, s, &r);
    bb::calc::Routing bal;
    auto ref = bb::calc::compute_forward(d, s, &bal);
    EXPECT_EQ(got.summary["matrix_flops"], ref.summary["matrix_flops"]);
    EXPECT_EQ(got.summary["expert_union_per_layer"].get<std::int64_t>(), used);
  }
}
