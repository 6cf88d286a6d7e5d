// Every reference output is reproduced: integers exactly, floats to every printed digit (equal
// shortest repr), strings and structure as stored.
#include <gtest/gtest.h>

#include <cmath>

#include "calc/command.hpp"
#include "calc/pynum.hpp"
#include "support.hpp"

using bb::calc::Json;
using calc_test::at;

namespace {

Json fixture(const std::string& name) {
  return bb::calc::read_json_file(calc_test::kFixtures + "/" + name);
}

Json run(const Json& c) {
  return bb::calc::run_command(calc_test::data(), c["command"].get<std::string>(), c["args"], ".");
}

void expect_same(const Json& got, const Json& want, const std::string& where) {
  if (want.is_number_integer()) {  // signed and unsigned alike; never a float in between
    ASSERT_TRUE(got.is_number_integer()) << where << ": got " << got.dump();
    EXPECT_EQ(got.get<std::int64_t>(), want.get<std::int64_t>()) << where;
    return;
  }
  ASSERT_EQ(got.type(), want.type()) << where << ": got " << got.dump() << ", want " << want.dump();
  if (want.is_number_float()) {
    EXPECT_EQ(bb::calc::py_repr(got.get<double>()), bb::calc::py_repr(want.get<double>())) << where;
  } else {
    EXPECT_EQ(got, want) << where;
  }
}

}  // namespace

TEST(ReferenceOutputs, EveryStoredLeafIsReproduced) {
  Json f = fixture("reference-outputs.json");
  ASSERT_EQ(f["cases"].size(), 4u);
  for (const auto& c : f["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json doc = run(c);
    std::vector<std::string> keys;
    for (const auto& [k, v] : doc.items()) keys.push_back(k);
    EXPECT_EQ(Json(keys), c["top_level_keys"]);
    std::vector<std::string> summary_keys;
    for (const auto& [k, v] : doc["summary"].items()) summary_keys.push_back(k);
    EXPECT_EQ(Json(summary_keys), c["summary_keys"]);
    size_t checked = 0;
    for (const auto& e : c["expect"]) {
      std::string path = e["path"].get<std::string>();
      const Json* got = at(doc, path);
      ASSERT_NE(got, nullptr) << "missing " << path;
      expect_same(*got, e["value"], path);
      ++checked;
    }
    EXPECT_GT(checked, 20u);
  }
}

TEST(ReferenceOutputs, FloatsPrintExactlyAsTheReferenceTool) {
  Json doc = bb::calc::run_command(calc_test::data(), "ring-collective", Json{{"participants", 4}}, ".");
  std::string text = bb::calc::dump_json(doc);
  EXPECT_NE(text.find("\"all_reduce_modeled_seconds\": 1.2245760000000001e-05,"), std::string::npos);
  EXPECT_NE(text.find("\"dense_tp_serial_collective_seconds\": 0.0008816947200000001,"), std::string::npos);
  EXPECT_NE(text.find("\"all_reduce_startup_seconds\": 1.2e-05,"), std::string::npos);
  EXPECT_NE(text.find("\"bandwidth_bytes_per_second\": 50000000000,"), std::string::npos);
}

TEST(ReferenceSummaries, AllFiveModelsPrefillDecodeAndRouting) {
  Json f = fixture("reference-summaries.json");
  ASSERT_GE(f["cases"].size(), 15u);
  for (const auto& c : f["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json doc = run(c);
    for (const auto& [key, want] : c["summary"].items()) {
      ASSERT_TRUE(doc["summary"].contains(key)) << key;
      expect_same(doc["summary"][key], want, key);
    }
  }
}

TEST(ReferenceValues, DocumentedFiguresToThePrintedPrecision) {
  Json f = fixture("formulas-values.json");
  for (const auto& c : f["cases"]) {
    SCOPED_TRACE(c["command"].get<std::string>() + " " + c["args"].dump());
    Json doc = run(c);
    for (const auto& check : c["checks"]) {
      std::string path = check["path"].get<std::string>();
      const Json* got = at(doc, path);
      ASSERT_NE(got, nullptr) << path;
      if (check.contains("digits")) {
        double scale = check["scale"].get<double>();
        double p = std::pow(10.0, check["digits"].get<int>());
        double v = std::round(got->get<double>() * scale * p) / p;
        EXPECT_NEAR(v, check["expect"].get<double>(), 0.5 / p) << path;
      } else {
        expect_same(*got, check["expect"], path);
      }
    }
  }
}

TEST(DoneCriterion, Qwen3EightBPrefill) {
  Json doc = bb::calc::run_command(calc_test::data(), "forward",
                                   Json{{"model", "qwen3-8b"}, {"tokens", "8192"}}, ".");
  EXPECT_EQ(doc["summary"]["parameters"].get<std::int64_t>(), 8190735360);
  EXPECT_EQ(doc["summary"]["matrix_flops"].get<std::int64_t>(), 133594323353600);
}
