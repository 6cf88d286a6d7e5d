// Bad input is a clear error, never a silent substitute.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calc/command.hpp"
#include "calc/error.hpp"
#include "support.hpp"

using bb::calc::Json;

namespace {

// Runs a command and returns the error message ("" when it unexpectedly succeeds).
std::string error_of(const std::string& command, const Json& args) {
  try {
    bb::calc::run_command(calc_test::data(), command, args, ".");
  } catch (const bb::calc::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(BadInput, UnknownNamesAreListed) {
  EXPECT_NE(error_of("forward", {{"model", "gpt-5"}}).find("unknown model 'gpt-5' (known: deepseek"),
            std::string::npos);
  EXPECT_NE(error_of("projection-bound", {{"device", "tpu-v9"}}).find("unknown device 'tpu-v9'"),
            std::string::npos);
  EXPECT_NE(error_of("forward", {{"tokenz", 5}}).find("unknown argument 'tokenz'"), std::string::npos);
  EXPECT_THROW(bb::calc::command_spec("fly"), bb::calc::Error);
}

TEST(BadInput, SizesMustBePositiveWholeNumbers) {
  EXPECT_NE(error_of("forward", {{"batch", 0}}).find("batch must be a positive integer"), std::string::npos);
  EXPECT_NE(error_of("forward", {{"tokens", -4}}).find("tokens must be a positive integer"),
            std::string::npos);
  EXPECT_NE(error_of("forward", {{"tokens", "1.5"}}).find("must be a whole number"), std::string::npos);
  EXPECT_NE(error_of("forward", {{"tokens", true}}).find("must be an integer"), std::string::npos);
  EXPECT_NE(error_of("forward", {{"history", 40960}}).find("exceeds max_position_embeddings"),
            std::string::npos);
  EXPECT_NE(error_of("generate", {{"steps", 0}}).find("steps must be a positive integer"), std::string::npos);
  EXPECT_NE(error_of("ring-collective", {{"participants", 0}}).find("participants"), std::string::npos);
  EXPECT_NE(error_of("ring-collective", {{"participants", 3}}).find("divisible by participants"),
            std::string::npos);
}

TEST(BadInput, NonFiniteAndOutOfRangeNumbers) {
  EXPECT_NE(error_of("decode-budget", {{"compute_multiplier", "nan"}}).find("finite"), std::string::npos);
  EXPECT_NE(error_of("decode-budget", {{"bandwidth_multiplier", "inf"}}).find("finite"), std::string::npos);
  EXPECT_NE(
      error_of("roofline",
               {{"device", "h100-sxm"}, {"flops", 1}, {"traffic_bytes", 1}, {"compute_efficiency", 1.5}})
          .find("compute-efficiency must be in (0, 1]"),
      std::string::npos);
  EXPECT_NE(error_of("resource-basics", {{"link_efficiency", 1.01}}).find("link-efficiency"),
            std::string::npos);
  EXPECT_NE(error_of("decode-budget", {{"weight_bits", 5}}).find("weight-bits must be 4, 8 or 16"),
            std::string::npos);
  EXPECT_NE(error_of("decode-budget", {{"parameters", "9e18"}}).find("overflow"), std::string::npos);
}

TEST(BadInput, PrecisionWithoutPeakIsAnErrorOrNullNeverASubstitute) {
  Json args = {{"device", "b200-sxm"}, {"flops", 100}, {"traffic_bytes", 10}, {"precision", "FP8"}};
  EXPECT_NE(error_of("roofline", args).find("has no peak for FP8 input / FP32 accumulate"),
            std::string::npos);
  Json structured = {
      {"device", "h100-sxm"}, {"flops", 100}, {"traffic_bytes", 10}, {"sparsity", "structured"}};
  EXPECT_NE(error_of("roofline", structured).find("--sparse-eligible"), std::string::npos);
  structured["sparse_eligible"] = true;
  EXPECT_EQ(error_of("roofline", structured), "");
  // The RTX A6000 record has no BF16/FP32 tensor dense... it does; the 4090 has no TF32 row: null bound.
  Json doc = bb::calc::run_command(calc_test::data(), "roofline",
                                   {{"device", "rtx4090"},
                                    {"flops", 1},
                                    {"traffic_bytes", 1},
                                    {"precision", "FP16"},
                                    {"accumulator", "FP16"}},
                                   ".");
  EXPECT_EQ(doc["selected_peak"]["tera_ops_per_second"].get<double>(), 330.3);
  EXPECT_NE(
      error_of("roofline", {{"device", "rtx4090"}, {"flops", 1}, {"traffic_bytes", 1}, {"precision", "TF32"}})
          .find("no peak"),
      std::string::npos);
}

TEST(BadInput, RoutingOnADenseModelIsAnError) {
  EXPECT_NE(error_of("forward", {{"model", "qwen3-8b"}, {"routing", "balanced"}}).find("is dense"),
            std::string::npos);
  EXPECT_NE(error_of("generate", {{"model", "qwen3-30b-a3b"}}).find("dense decoders only"),
            std::string::npos);
  EXPECT_NE(error_of("all-to-all", {{"model", "qwen3-8b"}}).find("needs an MoE model"), std::string::npos);
  EXPECT_NE(error_of("ring-collective", {{"model", "qwen3-30b-a3b"}}).find("Qwen3 dense"), std::string::npos);
}

TEST(BadInput, UnsupportedModelTypeIsAnErrorNotAFallback) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("calc-bad-model-" + std::to_string(::getpid()));
  fs::create_directories(dir / "configs" / "models" / "mistral-7b");
  Json cfg = bb::calc::read_json_file(calc_test::kDataDir + "/configs/models/qwen3-8b/config.json");
  cfg["model_type"] = "mistral";
  std::ofstream(dir / "configs" / "models" / "mistral-7b" / "config.json") << cfg.dump();
  bb::calc::Data data(dir);
  try {
    bb::calc::run_command(data, "forward", {{"model", "mistral-7b"}}, ".");
    FAIL() << "expected an error";
  } catch (const bb::calc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported model_type 'mistral'"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}
