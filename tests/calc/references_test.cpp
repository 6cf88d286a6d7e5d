// Keyed addressing, catalogue facts and scenario arguments by reference: values resolve by key, a
// position is refused with the keyed spelling, and dangling references and cycles are located errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "calc/formula.hpp"
#include "calc/scenarios.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using bb::calc::Engine;

namespace {

std::string error_of(Engine& e, const std::string& expr) {
  try {
    e.evaluate(expr);
  } catch (const bb::calc::Error& err) {
    return err.what();
  }
  return "(no error)";
}

// A calculations folder with the project's configs and the given scenarios file.
fs::path calculations_with(const std::string& name, const std::string& scenarios) {
  fs::path dir = fs::temp_directory_path() / ("calc-refs-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "scenarios");
  fs::copy(fs::path(calc_test::kDataDir) / "configs", dir / "configs", fs::copy_options::recursive);
  std::ofstream(dir / "scenarios" / "book.json") << scenarios;
  return dir;
}

}  // namespace

TEST(Address, ListItemsByKey) {
  Engine e(calc_test::kDataDir);
  EXPECT_EQ(e.evaluate("qwen3-8b-prefill-8192.operators[q_proj].matrix_flops").integer, 274877906944);
  EXPECT_EQ(e.evaluate("qwen3-8b-decode-b1-s8192.weights[model.embed_tokens.weight].parameters").integer,
            151936LL * 4096);
  EXPECT_EQ(e.evaluate("cache-sequence-qwen3-8b.variants[mha].kv_heads").integer, 32);
  EXPECT_EQ(e.evaluate("resource-basics-70b-bf16-2cards.cards[card=1].packed_weight_bytes").integer,
            70000000000);
  EXPECT_EQ(e.evaluate("resource-basics-70b-bf16-2cards.cards[card=1].packed_weight_bytes").path,
            "resource-basics-70b-bf16-2cards.cards[card=1].packed_weight_bytes");
}

TEST(Address, PositionalIndexesAreRefusedWithTheKeyedForm) {
  Engine e(calc_test::kDataDir);
  EXPECT_NE(error_of(e, "qwen3-8b-prefill-8192.operators.0.name").find("write `operators[embedding]`"),
            std::string::npos);
  EXPECT_NE(error_of(e, "resource-basics-70b-bf16-2cards.cards.0.headroom_bytes").find("`cards[card=0]`"),
            std::string::npos);
  EXPECT_NE(
      error_of(e, "hardware().devices.0.memory.bandwidth_bytes_per_second").find("`hardware(h100-sxm)`"),
      std::string::npos);
  EXPECT_NE(error_of(e, "hardware(h100-sxm).peak_rates.7.tera_ops_per_second")
                .find("`peak(FP32, FP32, vector, dense)`"),
            std::string::npos);
  EXPECT_NE(error_of(e, "cache-sequence-qwen3-8b.variants[1].kv_heads").find("`variants[mha]`"),
            std::string::npos);
}

TEST(Address, CatalogueFacts) {
  Engine e(calc_test::kDataDir);
  EXPECT_EQ(e.evaluate("model(qwen3-8b).num_hidden_layers").integer, 36);
  EXPECT_EQ(e.evaluate("model(qwen3-32b).hidden_size").integer, 5120);
  EXPECT_DOUBLE_EQ(e.evaluate("hardware(h100-sxm).memory.bandwidth_bytes_per_second").number, 3.35e12);
  bb::calc::Value peak = e.evaluate("hardware(h100-sxm).peak(bf16, fp32, tensor, dense)");
  EXPECT_DOUBLE_EQ(peak.number, 989.4);
  EXPECT_EQ(peak.path, "hardware(h100-sxm).peak(BF16, FP32, tensor, dense).tera_ops_per_second");
  EXPECT_EQ(
      e.evaluate(
           "hardware(h100-sxm).peak(input=BF16, accumulator=FP32, unit=tensor, sparsity=dense).source_id")
          .text,
      "nvidia-h100");
  // An incomplete key that matches several rows is refused: lookups never pick one silently.
  EXPECT_NE(error_of(e, "hardware(h100-sxm).peak(BF16)").find("matches"), std::string::npos);
  EXPECT_NE(error_of(e, "model(nope).hidden_size").find("unknown model 'nope'"), std::string::npos);
  EXPECT_NE(error_of(e, "hardware(nope).memory.nominal_capacity").find("unknown device 'nope'"),
            std::string::npos);
  EXPECT_NE(error_of(e, "model(qwen3-8b)").find("name a field"), std::string::npos);
}

TEST(Formula, ExactIntegersAndOperators) {
  auto lookup = [](const std::string& ref) -> bb::calc::Json {
    if (ref == "a.x") return 19968622592;
    if (ref == "b-c.y") return 1.5;
    throw bb::calc::Error("unknown " + ref);
  };
  EXPECT_EQ(bb::calc::evaluate_formula("=a.x / 8", lookup), bb::calc::Json(2496077824));
  EXPECT_EQ(bb::calc::evaluate_formula("=3 * a.x - (a.x + 8) / 8", lookup),
            bb::calc::Json(3 * 19968622592LL - (19968622592LL + 8) / 8));
  EXPECT_EQ(bb::calc::evaluate_formula("=b-c.y * 2", lookup), bb::calc::Json(3.0));
  EXPECT_EQ(bb::calc::evaluate_formula("=-4 + 1", lookup), bb::calc::Json(-3));
  auto error = [&](const std::string& f) {
    try {
      bb::calc::evaluate_formula(f, lookup);
    } catch (const bb::calc::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error("=a.x / 7").find("leaves a remainder"), std::string::npos);
  EXPECT_NE(error("=a.x / 0").find("division by zero"), std::string::npos);
  EXPECT_NE(error("=a.x * a.x * a.x").find("overflow"), std::string::npos);
  EXPECT_NE(error("=(a.x").find("missing ')'"), std::string::npos);
  EXPECT_NE(error("=a.x +").find("expected"), std::string::npos);
  EXPECT_EQ(bb::calc::formula_references("=hardware(h100-sxm).peak(BF16, FP32, tensor, dense) * x-y.z"),
            (std::vector<std::string>{"hardware(h100-sxm).peak(BF16, FP32, tensor, dense)", "x-y.z"}));
}

TEST(ScenarioReferences, ResolveInDependencyOrder) {
  fs::path dir = calculations_with("order", R"({
  "schema_version": 1,
  "scenarios": [
    {"id": "decode-roofline", "command": "roofline",
     "args": {"device": "h100-sxm", "flops": "=decode.matrix_flops / 8",
              "traffic_bytes": "=decode.weight_read_once_per_operator_bytes + decode.kv_attention_unique_payload_bytes"}},
    {"id": "decode", "command": "forward", "args": {"model": "qwen3-8b", "history": 8192, "tokens": 1}}
  ]
}
)");
  Engine e(dir);
  EXPECT_EQ(e.evaluate("decode-roofline.scenario.flops").integer, 19968622592 / 8);
  EXPECT_EQ(e.evaluate("decode-roofline.scenario.traffic_bytes").integer, 16344926208);
  EXPECT_EQ(e.computations(), 2);
  fs::remove_all(dir);
}

TEST(ScenarioReferences, DanglingReferencesAndCyclesAreLocated) {
  fs::path dir = calculations_with("cycle", R"({
  "schema_version": 1,
  "scenarios": [
    {
      "id": "a",
      "command": "roofline",
      "args": {
        "device": "h100-sxm",
        "flops": "=b.scenario.flops",
        "traffic_bytes": 1
      }
    },
    {
      "id": "b",
      "command": "roofline",
      "args": {
        "device": "h100-sxm",
        "flops": "=a.scenario.flops + 1",
        "traffic_bytes": "=missing.kv_bytes * model(nope).hidden_size"
      }
    }
  ]
}
)");
  bb::calc::Data data(dir);
  auto problems = bb::calc::check_scenario_references(data, bb::calc::load_scenarios(data));
  std::vector<std::string> got;
  for (const auto& p : problems)
    got.push_back(std::to_string(p.line) + ":" + std::to_string(p.col) + " " + p.message);
  ASSERT_EQ(got.size(), 3u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "18:18 scenario arguments form a cycle: a -> b -> a");
  EXPECT_TRUE(
      got[1].starts_with("19:26 scenario 'b', argument 'traffic_bytes': reference `missing.kv_bytes`"))
      << got[1];
  EXPECT_NE(got[1].find("unknown scenario 'missing'"), std::string::npos);
  EXPECT_NE(got[2].find("unknown model 'nope'"), std::string::npos);
  Engine e(dir);
  EXPECT_NE(error_of(e, "a.compute_service_seconds").find("cycle: a -> b -> a"), std::string::npos);
  fs::remove_all(dir);
}
