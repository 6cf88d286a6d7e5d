// The real book's ported calculations recompute every stored sample result byte for byte, and every
// input a result records reaches a computed field: changed, the result no longer matches (it is stale).
#include <gtest/gtest.h>

#include "calc/error.hpp"
#include "ported_support.hpp"

using bb::calc::Json;
using ported_test::samples;

namespace {

const char* const kPorted[] = {"qwen-attention-input-pipeline",   "qwen-rmsnorm-split-reduction",
                               "qwen-pointwise-fusion-lifetimes", "qwen-persistent-tasks",
                               "qwen-matrix-vector-handoff",      "paired-projection-conditional-cost",
                               "fa4-single-sm-resource-balance"};

// The fields a calculation computes: the document without the inputs it echoes and the prose.
Json computed(Json doc) {
  for (const char* key : {"scenario", "sources", "model_sources", "assumptions"}) doc.erase(key);
  return doc;
}

// Candidate replacements of one recorded input value, valid or not.
std::vector<Json> mutations(const Json& v) {
  if (v.is_boolean()) return {!v.get<bool>()};
  if (v.is_string()) return {v.get<std::string>() == "staged" ? "direct" : "staged"};
  if (v.is_null()) return {Json{{"mps", 2}, {"cuda", 1}}};
  if (!v.is_number_integer()) return {};
  const std::int64_t x = v.get<std::int64_t>();
  return {x * 2, x / 2, x / 4, x + 1, x - 1};
}

// Every scalar leaf of `doc` at `pointer` (a JSON Pointer to an object of inputs).
std::vector<std::string> input_leaves(const Json& doc, const std::string& pointer) {
  std::vector<std::string> out;
  for (const auto& [key, value] : doc.at(Json::json_pointer(pointer)).items())
    if (!value.is_structured()) out.push_back(pointer + "/" + key);
  return out;
}

void expect_reproduced(const std::string& calculation) {
  const size_t n = ported_test::expect_samples_reproduced(calculation);
  if (n == 0)
    GTEST_SKIP() << "no stored samples of " << calculation << " under " << ported_test::corpus_root();
}

}  // namespace

TEST(PortedReference, QwenAttentionInputPipeline) {
  expect_reproduced("qwen-attention-input-pipeline");
}
TEST(PortedReference, QwenRmsnormSplitReduction) {
  expect_reproduced("qwen-rmsnorm-split-reduction");
}
TEST(PortedReference, QwenPointwiseFusionLifetimes) {
  expect_reproduced("qwen-pointwise-fusion-lifetimes");
}
TEST(PortedReference, QwenPersistentTasks) {
  expect_reproduced("qwen-persistent-tasks");
}
TEST(PortedReference, QwenMatrixVectorHandoff) {
  expect_reproduced("qwen-matrix-vector-handoff");
}
TEST(PortedReference, PairedProjectionConditionalCost) {
  expect_reproduced("paired-projection-conditional-cost");
}
TEST(PortedReference, Fa4SingleSmResourceBalance) {
  expect_reproduced("fa4-single-sm-resource-balance");
}

// The guarantee behind "a changed input makes the result stale": for every input a sample records
// (each scenario value; the FA4 rates, which that result records in its sources), some change of it
// recomputes to different computed fields. An input the port ignored would fail here.
TEST(PortedStale, EveryRecordedInputReachesAComputedField) {
  size_t inputs = 0;
  for (const char* calculation : kPorted) {
    for (const auto& s : samples(calculation)) {
      const std::string where = s.doc.contains("scenario") ? "/scenario" : "/sources/rates";
      for (const auto& pointer : input_leaves(s.doc, where)) {
        SCOPED_TRACE(s.file.string() + " " + pointer);
        const Json stored = s.doc.at(Json::json_pointer(pointer));
        bool changed = false;
        for (const Json& replacement : mutations(stored)) {
          try {
            Json fresh = ported_test::recompute_changed(
                s, [&](Json& d) { d[Json::json_pointer(pointer)] = replacement; });
            if (computed(fresh) != computed(s.doc)) changed = true;
          } catch (const bb::calc::Error&) {
            // Refused (zero, not dividing, out of range): never silently equal, but proves nothing here.
          }
        }
        EXPECT_TRUE(changed) << "no change of " << pointer << " changes a computed field";
        ++inputs;
      }
    }
  }
  if (inputs == 0) GTEST_SKIP() << "no stored samples under " << ported_test::corpus_root();
  EXPECT_GE(inputs, 40u);
}

// A model config the result cites is hashed again: an edited config makes the sources row differ, even
// where the edited field does not enter the numbers.
TEST(PortedStale, EditedConfigChangesTheCitedHash) {
  auto list = samples("qwen-rmsnorm-split-reduction");
  SKIP_WITHOUT_SAMPLES(list);
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("ported-config-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "configs" / "models");
  fs::copy(list[0].calculations / "configs" / "models" / "qwen3-8b", dir / "configs" / "models" / "qwen3-8b");
  bb::calc::Data data(dir);
  EXPECT_EQ(ported_test::recompute(data, list[0].doc)["sources"], list[0].doc["sources"]);
  std::string config = ported_test::read_bytes(dir / "configs/models/qwen3-8b/config.json");
  config.insert(config.find('{') + 1, "\n  \"comment\": \"edited\",");
  std::ofstream(dir / "configs/models/qwen3-8b/config.json", std::ios::trunc) << config;
  bb::calc::Data edited(dir);
  Json fresh = ported_test::recompute(edited, list[0].doc);
  EXPECT_NE(fresh["sources"][0]["sha256"], list[0].doc["sources"][0]["sha256"]);
  EXPECT_EQ(computed(fresh), computed(list[0].doc));  // the numbers themselves did not move
  fs::remove_all(dir);
}

// A stored result is untrusted: a source row may not make the tool read outside calculations/.
TEST(PortedStale, SourcesOutsideTheBookAreRefused) {
  auto list = samples("qwen-attention-input-pipeline");
  SKIP_WITHOUT_SAMPLES(list);
  for (const char* file : {"../../../../etc/passwd", "/etc/passwd", "configs/../../x.json"}) {
    Json doc = list[0].doc;
    doc["sources"][0]["file"] = file;
    bb::calc::Data data(list[0].calculations);
    try {
      ported_test::recompute(data, doc);
      ADD_FAILURE() << file << " was accepted";
    } catch (const bb::calc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("calculations/"), std::string::npos) << e.what();
    }
  }
}
