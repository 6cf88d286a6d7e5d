// Reproducing and verifying the stored results (see reproduce.hpp).
#include "calc/reproduce.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "calc/command.hpp"
#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "calc/recompute.hpp"
#include "calc/report.hpp"
#include "calc/scenario_file.hpp"
#include "calc/scenarios.hpp"
#include "text/digest.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

std::string sha256_hex(const std::string& bytes) {
  return text::sha256_hex(bytes);
}

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot write " + p.string());
  out << bytes;
  if (!out) throw Error("failed writing " + p.string());
}

// The inputs the results depend on, relative to the calculations folder, sorted.
std::vector<std::string> input_files(const Data& data) {
  std::vector<std::string> files;
  for (const auto& id : data.model_ids()) files.push_back("configs/models/" + id + "/config.json");
  for (const char* f : {"configs/hardware.json", "configs/sources.lock.json", "scenarios/book.json"})
    if (fs::exists(data.root() / f)) files.push_back(f);
  std::sort(files.begin(), files.end());
  return files;
}

Json input_hashes(const Data& data) {
  Json list = Json::array();
  for (const auto& f : input_files(data))
    list.push_back(Json{{"file", f}, {"sha256", sha256_file(data.root() / f)}});
  return list;
}

// The files a scenario result produces: name -> bytes.
std::vector<std::pair<std::string, std::string>> artifacts_for(const Scenario& s, const Json& doc) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("results/" + s.id + ".json", dump_json(doc));
  out.emplace_back("results/" + s.id + ".md", render_markdown(doc));
  if (command_spec(s.command).has_operators && doc.contains("operators"))
    out.emplace_back("results/" + s.id + ".csv", render_csv(doc));
  return out;
}

}  // namespace

std::string sha256_file(const fs::path& path) {
  return sha256_hex(read_bytes(path));
}

std::vector<ResultStatus> check_results(const Data& data) {
  Engine engine(data.root());
  return check_results(engine);
}

std::vector<ResultStatus> check_results(Engine& engine) {
  const Data& data = engine.data();
  std::vector<ResultStatus> out;
  for (const auto& s : engine.scenarios()) {
    ResultStatus st{s.id, s.line, {}, {}, {}};
    try {
      for (auto& [file, bytes] : artifacts_for(s, engine.scenario_result(s.id))) {
        fs::path p = data.root() / file;
        if (!fs::exists(p) || read_bytes(p) != bytes) st.stale_files.push_back(file);
        st.artifacts.emplace_back(file, std::move(bytes));
      }
    } catch (const Error& e) {
      st.error = e.what();
    }
    out.push_back(std::move(st));
  }
  return out;
}

std::string manifest_for(const Data& data, const std::vector<ResultStatus>& statuses) {
  Json artifacts = Json::array();
  for (const auto& st : statuses)
    for (const auto& [file, bytes] : st.artifacts)
      artifacts.push_back(Json{{"file", file}, {"sha256", sha256_hex(bytes)}});
  Json manifest = Json::object();
  manifest["schema_version"] = 1;
  manifest["scope"] = "scenarios listed in scenarios/book.json; not evidence of whole-book completion";
  manifest["generator"] = "bookbuild calc reproduce";
  manifest["scenario_sha256"] = sha256_file(data.root() / "scenarios" / "book.json");
  manifest["inputs"] = input_hashes(data);
  manifest["artifacts"] = artifacts;
  return dump_json(manifest);
}

bool manifest_current(const Data& data, const std::vector<ResultStatus>& statuses) {
  const fs::path p = data.root() / "results" / "manifest.json";
  return fs::exists(p) && read_bytes(p) == manifest_for(data, statuses);
}

Json reproduce(const Data& data, bool write) {
  auto start = std::chrono::steady_clock::now();
  auto statuses = check_results(data);
  Json stale = Json::array(), errors = Json::array();
  size_t artifact_count = 0;
  for (const auto& st : statuses) {
    if (!st.error.empty()) errors.push_back(st.error);
    for (const auto& f : st.stale_files) stale.push_back(f);
  }
  // Nothing is written unless every scenario computes: no half-updated results folder.
  if (write && !errors.empty()) throw Error("not writing results: " + errors[0].get<std::string>());
  for (const auto& st : statuses)
    for (const auto& [file, bytes] : st.artifacts) {
      if (write && std::find(st.stale_files.begin(), st.stale_files.end(), file) != st.stale_files.end())
        write_bytes(data.root() / file, bytes);
      ++artifact_count;
    }
  const fs::path manifest_path = data.root() / "results" / "manifest.json";
  std::string manifest_bytes = manifest_for(data, statuses);
  if (!fs::exists(manifest_path) || read_bytes(manifest_path) != manifest_bytes) {
    stale.push_back("results/manifest.json");
    if (write) write_bytes(manifest_path, manifest_bytes);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Json doc = Json::object();
  doc["calculation"] = "reproduce";
  doc["summary"] = Json{{"scenarios", statuses.size()},
                        {"artifacts", artifact_count},
                        {"stale", stale.size()},
                        {"errors", errors.size()},
                        {"written", write},
                        {"manifest", "results/manifest.json"},
                        {"elapsed_seconds", seconds}};
  doc["stale"] = stale;
  doc["errors"] = errors;
  return doc;
}

Json verify_results(const Data& data) {
  // The real book's form (scenarios by topic, or an LFS pointer): no manifest; each result file records
  // its calculation and scenario, and is recomputed from them.
  if (const ScenarioForm form = read_scenario_file(data.root()).form;
      form == ScenarioForm::Topics || form == ScenarioForm::LfsPointer ||
      (form == ScenarioForm::Absent && !fs::exists(data.root() / "results" / "manifest.json")))
    return verify_recorded_results(data);
  Json problems = Json::array();
  const fs::path manifest_path = data.root() / "results" / "manifest.json";
  if (!fs::exists(manifest_path))
    throw Error("results/manifest.json not found: run `bookbuild calc reproduce` first");
  Json manifest = read_json_file(manifest_path);
  Json inputs = input_hashes(data);
  if (manifest.value("inputs", Json()) != inputs) {
    std::map<std::string, std::string> old;
    for (const auto& row : manifest.value("inputs", Json::array()))
      old[row.value("file", "")] = row.value("sha256", "");
    for (const auto& row : inputs) {
      auto it = old.find(row["file"].get<std::string>());
      if (it == old.end())
        problems.push_back("input " + row["file"].get<std::string>() + " is not in the manifest");
      else if (it->second != row["sha256"])
        problems.push_back("input " + it->first + " changed since reproduce");
      if (it != old.end()) old.erase(it);
    }
    for (const auto& [file, hash] : old)
      problems.push_back("input " + file + " listed in the manifest is gone");
  }
  std::set<std::string> listed;
  size_t checked = 0;
  for (const auto& row : manifest.value("artifacts", Json::array())) {
    std::string file = row.value("file", "");
    listed.insert(file);
    fs::path p = data.root() / file;
    if (!fs::exists(p)) {
      problems.push_back("artifact " + file + " is missing");
      continue;
    }
    ++checked;
    if (sha256_file(p) != row.value("sha256", ""))
      problems.push_back("artifact " + file + " does not match its hash");
  }
  // Recompute: the stored bytes must be what this build of the library produces now.
  Engine engine(data.root());
  const auto& scenarios = engine.scenarios();
  for (const auto& s : scenarios) {
    for (const auto& [file, bytes] : artifacts_for(s, engine.scenario_result(s.id))) {
      if (!listed.count(file)) {
        problems.push_back("scenario " + s.id + ": " + file + " is not in the manifest");
        continue;
      }
      fs::path p = data.root() / file;
      if (fs::exists(p) && read_bytes(p) != bytes)
        problems.push_back("scenario " + s.id + ": " + file + " differs from a fresh computation");
    }
  }
  if (fs::is_directory(data.root() / "results"))
    for (const auto& e : fs::directory_iterator(data.root() / "results")) {
      std::string file = "results/" + e.path().filename().string();
      if (file != "results/manifest.json" && !listed.count(file))
        problems.push_back(file + " is not listed in the manifest");
    }
  Json doc = Json::object();
  doc["calculation"] = "verify-results";
  doc["summary"] = Json{{"ok", problems.empty()},
                        {"scenarios", scenarios.size()},
                        {"artifacts_checked", checked},
                        {"problem_count", problems.size()}};
  doc["problems"] = problems;
  return doc;
}

}  // namespace bb::calc
