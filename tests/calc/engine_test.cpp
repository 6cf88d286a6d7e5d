// The builder API: expressions resolve to typed values, each scenario computed once.
#include <gtest/gtest.h>

#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "support.hpp"

using bb::calc::Engine;
using bb::calc::Value;

TEST(Engine, ScenarioPathsResolveToExactTypedValues) {
  Engine e(calc_test::kDataDir);
  Value v = e.evaluate("qwen3-8b-prefill-8192.summary.matrix_flops");
  EXPECT_EQ(v.kind, Value::Kind::Integer);
  EXPECT_EQ(v.integer, 133594323353600);
  EXPECT_EQ(v.path, "qwen3-8b-prefill-8192.summary.matrix_flops");
  Value implied = e.evaluate("qwen3-8b-prefill-8192.parameters");
  EXPECT_EQ(implied.integer, 8190735360);
  EXPECT_EQ(implied.path, "qwen3-8b-prefill-8192.summary.parameters");
  Value f = e.evaluate("ring-qwen3-8b-t1-p4.all_reduce_modeled_seconds");
  EXPECT_EQ(f.kind, Value::Kind::Float);
  EXPECT_EQ(f.to_string(), "1.2245760000000001e-05");
  EXPECT_EQ(e.evaluate("decode-budget-base.fits_declared_budget").kind, Value::Kind::Boolean);
  EXPECT_EQ(e.evaluate("decode-budget-base.measured_decode_seconds").kind, Value::Kind::Null);
  EXPECT_EQ(e.evaluate("qwen3-8b-prefill-8192.operators.q_proj.matrix_flops").integer, 274877906944);
  EXPECT_EQ(e.evaluate("qwen3-8b-prefill-8192.operators[embedding].name").text, "embedding");
  EXPECT_EQ(e.evaluate("qwen3-8b-prefill-8192.special_ops.sin").integer, 1048576);
}

TEST(Engine, EachScenarioIsComputedOnce) {
  Engine e(calc_test::kDataDir);
  EXPECT_EQ(e.computations(), 0);
  e.evaluate("qwen3-8b-prefill-8192.matrix_flops");
  e.evaluate("qwen3-8b-prefill-8192.parameters");
  e.evaluate("qwen3-8b-prefill-8192.summary.scalar_flops");
  EXPECT_EQ(e.computations(), 1);
  e.evaluate("decode-budget-base.compute_memory_crossover_batch");
  EXPECT_EQ(e.computations(), 2);
}

TEST(Engine, InlineCallsAreCachedByTheirArguments) {
  Engine e(calc_test::kDataDir);
  Value v = e.evaluate("forward(model=qwen3-8b, tokens=8192).summary.matrix_flops");
  EXPECT_EQ(v.integer, 133594323353600);
  EXPECT_EQ(v.path, "forward(model=qwen3-8b, tokens=8192).summary.matrix_flops");
  e.evaluate("forward(tokens=8192, model=qwen3-8b).parameters");  // same call, other order
  EXPECT_EQ(e.computations(), 1);
  EXPECT_EQ(e.evaluate("decode_budget(weight_bits=16).fits_declared_budget").boolean, false);
  EXPECT_EQ(e.computations(), 2);
}

TEST(Engine, ErrorsNameTheExpressionAndTheProblem) {
  Engine e(calc_test::kDataDir);
  auto message = [&](const char* expr) {
    try {
      e.evaluate(expr);
    } catch (const bb::calc::Error& err) {
      return std::string(err.what());
    }
    return std::string();
  };
  EXPECT_NE(message("no-such-scenario.matrix_flops").find("unknown scenario 'no-such-scenario'"),
            std::string::npos);
  EXPECT_NE(message("qwen3-8b-prefill-8192.summary.flops").find("has no field 'flops'"), std::string::npos);
  EXPECT_NE(message("qwen3-8b-prefill-8192.summary").find("name a single value"), std::string::npos);
  EXPECT_NE(message("forward(model=nope).matrix_flops").find("unknown model 'nope'"), std::string::npos);
  EXPECT_NE(message("forward(model=qwen3-8b)").find("name a field"), std::string::npos);
}

// A formula derives a number from facts and results (the K projection's rows, a ratio) and keeps
// integers exact; a division that leaves a remainder and an unknown reference are errors.
TEST(Engine, FormulasDeriveNumbersFromFactsAndResults) {
  Engine e(calc_test::kDataDir);
  Value rows = e.evaluate("=model(qwen3-8b).num_key_value_heads * model(qwen3-8b).head_dim");
  EXPECT_EQ(rows.kind, Value::Kind::Integer);
  EXPECT_EQ(rows.integer, 1024);
  Value twice =
      e.evaluate(" =2 * qwen3-8b-prefill-8192.matrix_flops / qwen3-8b-prefill-8192.scenario.tokens");
  EXPECT_EQ(twice.integer, 2 * e.evaluate("qwen3-8b-prefill-8192.matrix_flops").integer / 8192);
  EXPECT_DOUBLE_EQ(e.evaluate("=qwen3-8b-prefill-8192.scenario.tokens * 0.5").number, 4096.0);
  EXPECT_THROW(e.evaluate("=model(qwen3-8b).num_hidden_layers / 7"), bb::calc::Error);
  EXPECT_THROW(e.evaluate("=no-such-scenario.matrix_flops * 2"), bb::calc::Error);
}
