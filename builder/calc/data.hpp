// The calc library's inputs: the `calculations/` folder (model configs, source lock, hardware catalog).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "calc/json.hpp"

namespace bb::calc {

// One model's official config.json as found under configs/models/<id>/.
struct ModelConfig {
  std::string id;
  std::filesystem::path file;  // relative to the calculations folder
  Json config;
};

// Read-only view of a calculations folder. Files are read on first use and kept.
class Data {
 public:
  explicit Data(std::filesystem::path calculations_dir);

  const std::filesystem::path& root() const { return root_; }
  std::vector<std::string> model_ids() const;
  const ModelConfig& model(std::string_view id) const;  // unknown id: Error listing the known ones

  const Json& hardware() const;
  const Json& device(std::string_view id) const;  // unknown id: Error listing the known ones

  const Json& sources_lock() const;
  // Replaces configs/sources.lock.json for this view (a recompute from the sources a result recorded).
  void set_sources_lock(Json lock) { lock_ = std::move(lock); }
  // The source rows ({file, url, revision, sha256}) a result cites for a model or a device.
  Json model_sources(std::string_view model_id) const;
  Json device_sources(const Json& device) const;

 private:
  std::filesystem::path root_;
  mutable std::map<std::string, ModelConfig, std::less<>> models_;
  mutable Json hardware_;
  mutable Json lock_;
};

}  // namespace bb::calc
