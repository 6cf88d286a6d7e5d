// What a change of one input of a ported calculation does to the expected field, and the invariants each
// calculation's document keeps for any input (checked over ranges of inputs, not one chosen case).
#include <gtest/gtest.h>

#include "calc/attention_input.hpp"
#include "calc/error.hpp"
#include "calc/fa4_balance.hpp"
#include "calc/fraction.hpp"
#include "calc/fusion_lifetime.hpp"
#include "calc/matrix_vector_handoff.hpp"
#include "calc/persistent_tasks.hpp"
#include "calc/rmsnorm_split.hpp"
#include "calc/task_dag.hpp"
#include "ported_support.hpp"
#include "support.hpp"

using bb::calc::Json;
using bb::calc::Rational;
using ported_test::recompute_changed;
using ported_test::samples;

namespace {
std::int64_t I(const Json& v) {
  return v.get<std::int64_t>();
}
Rational R(const Json& v) {
  return bb::calc::read_exact(v, "test");
}
}  // namespace

// Doubling the matrix rate of the base attention sample gives exactly the stored "matrix-double" result.
TEST(PortedChange, AttentionMatrixRateDoubledIsTheStoredVariant) {
  auto list = samples("qwen-attention-input-pipeline");
  SKIP_WITHOUT_SAMPLES(list);
  size_t pairs = 0;
  for (const auto& base : list)
    for (const auto& other : list) {
      const Json& b = base.doc["scenario"];
      if (other.doc["scenario"]["matrix_flops_per_tick"] != I(b["matrix_flops_per_tick"]) * 2) continue;
      Json fresh = recompute_changed(base, [](Json& d) {
        d["scenario"]["matrix_flops_per_tick"] = I(d["scenario"]["matrix_flops_per_tick"]) * 2;
      });
      EXPECT_EQ(bb::calc::dump_json(fresh), other.bytes) << base.file << " -> " << other.file;
      ++pairs;
    }
  EXPECT_GT(pairs, 0u);
}

// Any chunking that divides head_dim: every async row finishes no later than the synchronous row with
// the same slots, more slots never finish later, and the total work does not depend on the chunking.
TEST(PortedInvariant, AttentionSlotsAndModes) {
  for (std::int64_t tile_k : {8, 16, 32, 64, 128})
    for (std::int64_t latency : {0, 1, 64, 500}) {
      bb::calc::AttentionInputScenario in;
      in.tile_k = tile_k;
      in.latency_ticks = latency;
      Json doc = bb::calc::attention_input_document(calc_test::data(), in);
      SCOPED_TRACE(doc["scenario"].dump());
      EXPECT_EQ(I(doc["total_flops"]), 2 * 128 * 128 * 128);
      const Json& rows = doc["rows"];
      ASSERT_EQ(rows.size(), 8u);
      for (size_t i = 0; i < 4; ++i) {
        EXPECT_LE(I(rows[4 + i]["timing"]["finish_tick"]), I(rows[i]["timing"]["finish_tick"]));
        if (i > 0) {
          EXPECT_LE(I(rows[4 + i]["timing"]["finish_tick"]), I(rows[4 + i - 1]["timing"]["finish_tick"]));
        }
      }
      EXPECT_GE(I(rows[4]["timing"]["finish_tick"]), I(doc["no_slot_backpressure_finish_tick"]));
    }
}

// RMSNorm: splitting never changes the arithmetic, only how the adds are grouped and what crosses.
TEST(PortedInvariant, RmsnormSplitAccounting) {
  for (std::int64_t rows : {1, 7, 1024})
    for (std::int64_t splits : {1, 3, 8, 100, 4096}) {
      bb::calc::RmsnormSplitScenario in;
      in.rows = rows;
      in.splits = splits;
      Json doc = bb::calc::rmsnorm_split_document(calc_test::data(), in);
      const Json& s = doc["summary"];
      const std::int64_t D = I(s["width"]);
      EXPECT_EQ(I(s["local_reduction_adds"]) + I(s["merge_reduction_adds"]),
                I(doc["arithmetic"]["reduction_adds"]));
      std::int64_t widths = 0;
      for (const auto& w : doc["partition_widths"]) widths += I(w);
      EXPECT_EQ(widths, D);
      EXPECT_EQ(doc["partition_widths"].size(), static_cast<size_t>(splits));
      EXPECT_EQ(I(s["additional_interface_bytes"]), 2 * rows * D + 4 * rows * (3 * splits + 1));
    }
  bb::calc::RmsnormSplitScenario too_many;
  too_many.splits = 4097;
  EXPECT_THROW(bb::calc::rmsnorm_split_document(calc_test::data(), too_many), bb::calc::Error);
}

TEST(PortedChange, RmsnormSplitsChangeThePartitions) {
  auto list = samples("qwen-rmsnorm-split-reduction");
  SKIP_WITHOUT_SAMPLES(list);
  Json fresh = recompute_changed(list[0], [](Json& d) { d["scenario"]["splits"] = 3; });
  ASSERT_EQ(fresh["partition_widths"].size(), 3u);
  EXPECT_EQ(fresh["partition_widths"][0], 1366);  // 4096 = 1366 + 1365 + 1365
  EXPECT_EQ(fresh["summary"]["partial_buffer_bytes"], 4 * I(list[0].doc["scenario"]["rows"]) * 3);
  EXPECT_EQ(fresh["reduction_variants"][0], list[0].doc["reduction_variants"][0]);  // fused path unchanged
}

// Fusion: the saved bytes of the whole chain equal two BF16 round trips of every tensor it stops
// materialising, and fusing never raises the declared peak.
TEST(PortedInvariant, FusionSavesTheRoundTrips) {
  for (bool layout : {false, true})
    for (std::int64_t tokens : {1, 1024, 40960}) {
      bb::calc::FusionLifetimeScenario in;
      in.tokens = tokens;
      in.layout_copy = layout;
      Json doc = bb::calc::fusion_lifetime_document(calc_test::data(), in);
      const Json& s = doc["summary"];
      const std::int64_t x = I(s["bf16_intermediate_bytes"]);
      const std::int64_t intermediates = layout ? 3 : 2;  // silu, product (, reordered)
      EXPECT_EQ(I(s["saved_interface_bytes"]), 2 * x * intermediates);
      EXPECT_EQ(I(s["contiguous_partitions"]), layout ? 8 : 4);
      EXPECT_LE(I(s["fused_tensor_peak_bytes"]), I(s["separate_tensor_peak_bytes"]));
      for (const auto& v : doc["fusion_variants"]) EXPECT_EQ(v["final_live"], Json::array({"quantized"}));
    }
}

TEST(PortedChange, FusionLayoutCopyAddsAPermute) {
  auto list = samples("qwen-pointwise-fusion-lifetimes");
  SKIP_WITHOUT_SAMPLES(list);
  Json fresh = recompute_changed(list[0], [](Json& d) { d["scenario"]["layout_copy"] = true; });
  EXPECT_EQ(fresh["chain_operations"][2]["name"], "layout_permute");
  EXPECT_EQ(I(fresh["summary"]["standalone_layout_read_write_bytes"]),
            2 * I(list[0].doc["summary"]["bf16_intermediate_bytes"]));
}

// Persistent tasks: with free launches and task costs the persistent schedule never loses to the barrier.
TEST(PortedInvariant, PersistentNeverSlowerWithoutOverheads) {
  for (std::int64_t tile_rows : {1, 64, 100, 512, 1000}) {
    bb::calc::PersistentTasksScenario in;
    in.tile_rows = tile_rows;
    in.host_launch_ns = in.task_dispatch_ns = in.event_publish_ns = 0;
    Json doc = bb::calc::persistent_tasks_document(calc_test::data(), in);
    const Json& s = doc["summary"];
    EXPECT_EQ(I(s["tiles"]), (512 + tile_rows - 1) / tile_rows);
    EXPECT_LE(s["persistent_finish_ns"].get<double>(), s["barrier_finish_ns"].get<double>());
    EXPECT_GE(s["hypothetical_speedup"].get<double>(), 1.0);
    EXPECT_LE(I(s["persistent_intermediate_live_peak_bytes"]), I(s["intermediate_total_bytes"]));
  }
}

TEST(PortedChange, PersistentLaunchCostMovesBothFinishes) {
  auto list = samples("qwen-persistent-tasks");
  SKIP_WITHOUT_SAMPLES(list);
  Json fresh = recompute_changed(list[0], [](Json& d) { d["scenario"]["host_launch_ns"] = 0; });
  const double launch = static_cast<double>(I(list[0].doc["scenario"]["host_launch_ns"]));
  const Json &was = list[0].doc["summary"], &now = fresh["summary"];
  EXPECT_DOUBLE_EQ(was["barrier_finish_ns"].get<double>() - now["barrier_finish_ns"].get<double>(),
                   2 * launch);
  EXPECT_DOUBLE_EQ(was["persistent_finish_ns"].get<double>() - now["persistent_finish_ns"].get<double>(),
                   launch);
}

// The handoff: the direct path serves each crossing byte once, the staged path twice; the schedule
// respects every dependency and never overlaps two tasks on one resource.
TEST(PortedInvariant, HandoffScheduleIsConsistent) {
  for (const char* path : {"staged", "direct"})
    for (std::int64_t slots : {1, 2, 3, 8}) {
      bb::calc::MatrixVectorScenario in;
      in.path = path;
      in.slots = slots;
      in.length = 256;
      Json doc = bb::calc::matrix_vector_document(calc_test::data(), in);
      const Json& s = doc["summary"];
      EXPECT_EQ(I(s["served_handoff_bytes"]),
                I(s["crossing_payload_bytes"]) * (std::string(path) == "staged" ? 2 : 1));
      std::map<std::string, std::int64_t> end;
      std::map<std::string, std::int64_t> resource_free;
      for (const auto& t : doc["timeline"]) {
        for (const auto& p : t["scheduled_predecessors"])
          EXPECT_LE(end.at(p.get<std::string>()), I(t["start_tick"]));
        const std::string r = t["resource"];
        EXPECT_LE(resource_free[r], I(t["start_tick"])) << t["id"];
        resource_free[r] = I(t["end_tick"]);
        end[t["id"]] = I(t["end_tick"]);
      }
      for (const auto& o : doc["slot_ownership"]) {
        const std::int64_t g = I(o["group"]);
        if (g >= slots) {
          EXPECT_GE(I(o["start_tick"]),
                    I(doc["slot_ownership"][static_cast<size_t>(g - slots)]["release_tick"]));
        }
      }
    }
}

TEST(PortedChange, HandoffStagedPathDoublesTheServedBytes) {
  auto list = samples("qwen-matrix-vector-handoff");
  SKIP_WITHOUT_SAMPLES(list);
  for (const auto& sample : list) {
    const std::string other = sample.doc["scenario"]["path"] == "direct" ? "staged" : "direct";
    Json fresh = recompute_changed(sample, [&](Json& d) { d["scenario"]["path"] = other; });
    const std::int64_t was = I(sample.doc["summary"]["served_handoff_bytes"]);
    EXPECT_EQ(I(fresh["summary"]["served_handoff_bytes"]), other == "staged" ? 2 * was : was / 2);
    EXPECT_NE(fresh["summary"]["finish_tick"], sample.doc["summary"]["finish_tick"]);
  }
}

TEST(PortedInvariant, DagSchedulerRefusesCycles) {
  EXPECT_THROW(bb::calc::schedule_dag({{"a", 1, {"b"}, {}}, {"b", 1, {"a"}, {}}}), bb::calc::Error);
  EXPECT_THROW(bb::calc::schedule_dag({{"a", 1, {"nope"}, {}}}), bb::calc::Error);
  auto s = bb::calc::schedule_dag({{"a", 3, {}, "r"}, {"b", 2, {}, "r"}, {"c", 1, {"a", "b"}, {}}});
  EXPECT_EQ(s.finish, 6);
  EXPECT_EQ(s.critical_path, (std::vector<std::string>{"a", "b", "c"}));
}

// Paired projection: whichever rates are declared, the device with the lower cost per call is RTX (cuda)
// exactly when its rate over the Mac's is below the recorded tie ratio.
TEST(PortedChange, PairedCostWinnerFollowsTheTieRatio) {
  auto list = samples("paired-projection-conditional-cost");
  SKIP_WITHOUT_SAMPLES(list);
  size_t checked = 0;
  for (std::int64_t mps : {1, 2, 3, 5})
    for (std::int64_t cuda : {1, 2, 3, 7}) {
      Json fresh = recompute_changed(list[0], [&](Json& d) {
        d["scenario"]["hourly_cost_units"] = Json{{"mps", mps}, {"cuda", std::to_string(cuda)}};
      });
      for (const auto& row : fresh["rows"]) {
        const Rational ratio = Rational::ratio(cuda, mps), tie = R(row["rtx_over_mac_rate_tie_ratio"]);
        const Json& winner = row["lower_declared_cost"];
        EXPECT_EQ(winner.size() == 1 && winner[0] == "cuda", ratio < tie) << row.dump();
        EXPECT_EQ(row["cost_per_call_proxy"]["mps"],
                  bb::calc::exact_json(R(row["times_seconds_exact"]["mps"]) * Rational::ratio(mps, 3600)));
        EXPECT_TRUE(row["joules_per_call_proxy"].is_null());
        ++checked;
      }
    }
  EXPECT_EQ(checked, 64u);
  Json bad = list[0].doc;
  bad["scenario"]["whole_system_watts"] = Json{{"mps", 0}, {"cuda", 1}};
  bb::calc::Data data(list[0].calculations);
  EXPECT_THROW(ported_test::recompute(data, bad), bb::calc::Error);
}

// FA4: doubling one supply divides exactly that resource's cycles by two, in every tile.
TEST(PortedChange, Fa4RateScalesItsCycles) {
  auto list = samples("fa4-single-sm-resource-balance");
  SKIP_WITHOUT_SAMPLES(list);
  for (const auto& [rate, resource] : {std::pair{"bf16_matrix_flops_per_sm_cycle", "matrix"},
                                       {"smem_read_bytes_per_sm_cycle", "smem"},
                                       {"exponential_results_per_sm_cycle", "exp"}}) {
    Json fresh = recompute_changed(
        list[0], [&](Json& d) { d["sources"]["rates"][rate] = I(d["sources"]["rates"][rate]) * 2; });
    ASSERT_EQ(fresh["scenarios"].size(), list[0].doc["scenarios"].size());
    for (size_t i = 0; i < fresh["scenarios"].size(); ++i) {
      const Json &was = list[0].doc["scenarios"][i]["cycles"], &now = fresh["scenarios"][i]["cycles"];
      EXPECT_EQ(R(now[resource]) * Rational::ratio(2, 1), R(was[resource])) << rate;
      const Json& bound = fresh["scenarios"][i]["accounted_steady_state_bound_cycles"];
      for (const char* k : {"matrix", "smem", "exp"}) EXPECT_FALSE(R(bound) < R(now[k]));
    }
  }
}

// Exact comparison of fractions whose cross products exceed 128 bits (the paired-projection costs).
TEST(PortedInvariant, FractionsCompareWithoutOverflow) {
  const __int128 e22 = static_cast<__int128>(10'000'000'000) * 1'000'000'000'000;
  const Rational a = Rational::ratio(8299349974549841, 9 * e22),
                 b = Rational::ratio(4291812365408987, 18 * e22);
  EXPECT_TRUE(b < a);
  EXPECT_FALSE(a < b);
  EXPECT_FALSE(a < a);
  EXPECT_TRUE(Rational::ratio(-1, 3) < Rational::ratio(1, e22));
  EXPECT_TRUE(Rational::ratio(-2, 3) < Rational::ratio(-1, 3));
  EXPECT_TRUE(Rational::ratio(e22 - 1, e22) < Rational::ratio(e22, e22 + 1));  // 1 - 1/n < n/(n+1)
  EXPECT_EQ(bb::calc::parse_fraction("3/4", "x"), Rational::ratio(3, 4));
  EXPECT_EQ(bb::calc::parse_fraction("1.25e2", "x"), Rational::ratio(125, 1));
  EXPECT_EQ(bb::calc::parse_fraction("0.001", "x").to_string(), "1/1000");
  for (const char* bad : {"", "x", "1/0", "1.5/2", "1e", "--1"})
    EXPECT_THROW(bb::calc::parse_fraction(bad, "x"), bb::calc::Error) << bad;
}

// A result is untrusted: sizes that would list billions of partitions, tiles or groups are refused with
// a message instead of exhausting memory or time.
TEST(PortedBadInput, HostileSizesAreRefused) {
  auto refused = [](auto make) {
    try {
      make();
    } catch (const bb::calc::Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  bb::calc::RmsnormSplitScenario rms;
  rms.width_multiplier = 1'000'000;
  rms.splits = 1'000'000'000;
  EXPECT_NE(refused([&] { bb::calc::rmsnorm_split_document(calc_test::data(), rms); }).find("at most"),
            std::string::npos);
  bb::calc::PersistentTasksScenario tasks;
  tasks.tokens = 16385;
  tasks.tile_rows = 1;
  EXPECT_NE(
      refused([&] { bb::calc::persistent_tasks_document(calc_test::data(), tasks); }).find("16384 tiles"),
      std::string::npos);
  tasks.tile_rows = 2;  // 8193 tiles
  EXPECT_EQ(refused([&] { bb::calc::persistent_tasks_document(calc_test::data(), tasks); }), "(accepted)");
  tasks.tokens = 40961;
  EXPECT_NE(
      refused([&] { bb::calc::persistent_tasks_document(calc_test::data(), tasks); }).find("max_position"),
      std::string::npos);
  bb::calc::MatrixVectorScenario handoff;
  handoff.length = 40960;
  handoff.group_rows = 1;
  EXPECT_NE(
      refused([&] { bb::calc::matrix_vector_document(calc_test::data(), handoff); }).find("at most 1024"),
      std::string::npos);
  handoff.group_rows = 40;  // 1024 groups: the largest accepted
  EXPECT_EQ(refused([&] { bb::calc::matrix_vector_document(calc_test::data(), handoff); }), "(accepted)");
  bb::calc::AttentionInputScenario attention;
  attention.tile_k = 3;
  EXPECT_NE(refused([&] { bb::calc::attention_input_document(calc_test::data(), attention); }).find("divide"),
            std::string::npos);
}

// With the timing archive in the book, the paired projection's times are the medians of its trial
// averages (fixture: the real archive's MPS numbers, CUDA values around the recorded medians), so the
// stored rows are recomputed from samples; a changed median sample moves them, a short list is refused.
TEST(PortedArchive, PairedTimesAreMediansOfTheArchive) {
  auto list = samples("paired-projection-conditional-cost");
  SKIP_WITHOUT_SAMPLES(list);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ported-archive-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "configs" / "models");
  fs::copy(fs::path(calc_test::kDataDir) / "configs/models/qwen3-8b", dir / "configs/models/qwen3-8b");
  fs::copy(fs::path(calc_test::kFixtures) / "paired-projection-archive/sources", dir / "sources",
           fs::copy_options::recursive);
  const fs::path cuda = dir / "sources/paired-projection-cost/results/projection-cuda/results.json";
  {
    bb::calc::Data data(dir);
    EXPECT_EQ(ported_test::recompute(data, list[0].doc)["rows"], list[0].doc["rows"]);
  }
  Json archive = bb::calc::read_json_file(cuda);
  Json& reused = archive["rows"][0]["paths"]["reused"]["wall_us"];
  reused[5] = reused[5].get<double>() + 0.25;  // the median sample, still the median
  std::ofstream(cuda, std::ios::trunc) << archive.dump(2);
  {
    bb::calc::Data data(dir);
    Json rows = ported_test::recompute(data, list[0].doc)["rows"];
    EXPECT_NE(rows[0]["times_seconds_exact"]["cuda"], list[0].doc["rows"][0]["times_seconds_exact"]["cuda"]);
    EXPECT_NE(rows[0]["rtx_over_mac_rate_tie_ratio"], list[0].doc["rows"][0]["rtx_over_mac_rate_tie_ratio"]);
    EXPECT_EQ(rows[1], list[0].doc["rows"][1]);  // the rotating path kept its samples
  }
  reused.erase(reused.begin());
  std::ofstream(cuda, std::ios::trunc) << archive.dump(2);
  {
    bb::calc::Data data(dir);
    EXPECT_THROW(ported_test::recompute(data, list[0].doc), bb::calc::Error);
  }
  fs::remove_all(dir);
}
