// Loading and lookup of the calculations folder (see data.hpp).
#include "calc/data.hpp"

#include <algorithm>

#include "calc/error.hpp"
#include "text/suggest.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

namespace {
std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}
}  // namespace

Data::Data(fs::path calculations_dir) : root_(std::move(calculations_dir)) {
  if (!fs::is_directory(root_)) throw Error("calculations folder not found: " + root_.string());
}

std::vector<std::string> Data::model_ids() const {
  std::vector<std::string> ids;
  fs::path dir = root_ / "configs" / "models";
  if (fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir))
      if (fs::exists(entry.path() / "config.json")) ids.push_back(entry.path().filename().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}

const ModelConfig& Data::model(std::string_view id) const {
  if (auto it = models_.find(id); it != models_.end()) return it->second;
  auto ids = model_ids();
  if (std::find(ids.begin(), ids.end(), id) == ids.end())
    throw Error("unknown model '" + std::string(id) + "'" + text::did_you_mean(id, ids) +
                " (known: " + join(ids) + ")");
  ModelConfig m;
  m.id = std::string(id);
  m.file = fs::path("configs") / "models" / m.id / "config.json";
  m.config = read_json_file(root_ / m.file);
  return models_.emplace(m.id, std::move(m)).first->second;
}

const Json& Data::hardware() const {
  if (hardware_.is_null()) {
    hardware_ = read_json_file(root_ / "configs" / "hardware.json");
    if (!hardware_.contains("devices") || !hardware_["devices"].is_array())
      throw Error("configs/hardware.json: missing 'devices' list");
  }
  return hardware_;
}

const Json& Data::device(std::string_view id) const {
  std::vector<std::string> ids;
  for (const auto& d : hardware()["devices"]) {
    if (d.value("id", "") == id) return d;
    ids.push_back(d.value("id", ""));
  }
  throw Error("unknown device '" + std::string(id) + "'" + text::did_you_mean(id, ids) +
              " (known: " + join(ids) + ")");
}

const Json& Data::sources_lock() const {
  if (lock_.is_null()) lock_ = read_json_file(root_ / "configs" / "sources.lock.json");
  return lock_;
}

namespace {
Json cite(const Json& row) {
  Json c = Json::object();
  for (const char* key : {"file", "url", "revision", "sha256"})
    c[key] = row.contains(key) ? row[key] : Json();
  return c;
}
}  // namespace

Json Data::model_sources(std::string_view model_id) const {
  const Json& m = model(model_id).config;
  std::string family = m.value("model_type", "");
  Json out = Json::array();
  // Rows for the model itself first (config, weight index), then the modeling code of its family.
  for (const auto& row : sources_lock()["sources"])
    if (row.value("model", "") == model_id) out.push_back(cite(row));
  for (const auto& row : sources_lock()["sources"]) {
    if (!row.contains("families")) continue;
    for (const auto& f : row["families"])
      if (f == family) out.push_back(cite(row));
  }
  return out;
}

Json Data::device_sources(const Json& device) const {
  Json out = Json::array();
  if (!device.contains("source_ids")) return out;
  for (const auto& id : device["source_ids"]) {
    for (const auto& row : hardware().value("sources", Json::array()))
      if (row.value("id", "") == id) out.push_back(cite(row));
  }
  return out;
}

}  // namespace bb::calc
