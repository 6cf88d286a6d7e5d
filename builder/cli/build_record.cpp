// Writing build.json (see build_record.hpp).
#include "cli/build_record.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "text/digest.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

std::set<fs::path> files_of(const std::vector<fs::path>& outputs) {
  std::set<fs::path> files;
  std::error_code ec;
  for (const auto& p : outputs) {
    if (fs::is_regular_file(p, ec)) files.insert(p);
    if (!fs::is_directory(p, ec)) continue;
    for (fs::recursive_directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) files.insert(it->path());
  }
  return files;
}

nlohmann::ordered_json file_entry(const fs::path& file, const fs::path& out) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  return {{"path", file.lexically_relative(out).generic_string()},
          {"bytes", bytes.size()},
          {"sha256", text::sha256_hex(bytes)}};
}

double rounded(double seconds) {
  return std::round(seconds * 1000) / 1000;
}

}  // namespace

std::string build_record_json(const BuildRecord& record, const fs::path& out,
                              const std::vector<fs::path>& outputs) {
  nlohmann::ordered_json j;
  j["bookbuild"] = {{"version", record.version}, {"identity", record.tool}};
  j["commit"] = record.commit;
  j["editions"] = record.editions;
  j["seconds"] = rounded(record.seconds);
  auto jobs = nlohmann::ordered_json::array();
  for (const auto& [name, seconds] : record.jobs)
    jobs.push_back({{"job", name}, {"seconds", rounded(seconds)}});
  j["jobs"] = jobs;
  j["warnings"] = record.warnings;
  auto files = nlohmann::ordered_json::array();
  for (const auto& f : files_of(outputs)) files.push_back(file_entry(f, out));
  j["files"] = files;
  return j.dump(2) + "\n";
}

std::vector<std::string> warning_lines(const std::string& printed) {
  std::vector<std::string> lines;
  std::istringstream in(printed);
  for (std::string line; std::getline(in, line);)
    if (line.find(": warning: ") != std::string::npos) lines.push_back(line);
  return lines;
}

}  // namespace bb::cli
