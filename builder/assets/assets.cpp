// Locating and reading the tool's data files.
#include "assets/assets.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "diag/diagnostics.hpp"
#include "inputs/inputs.hpp"

namespace bb::assets {

namespace {

// An installed tree keeps its data at <prefix>/share/bookbuild, beside <prefix>/bin/bookbuild: found
// from the executable's own place, so that the tree works wherever it is moved. A binary in the build
// folder has no such folder and uses the source tree it was built from.
std::filesystem::path find_data_dir() {
  if (const char* env = std::getenv("BOOKBUILD_DATA_DIR"); env && *env) return env;
  if (auto installed = installed_dir("share/bookbuild"); !installed.empty()) return installed;
  return BOOKBUILD_DATA_DIR;
}

}  // namespace

std::filesystem::path installed_dir(const std::filesystem::path& relative) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  std::filesystem::path dir = exe.parent_path().parent_path() / relative;
  return std::filesystem::is_directory(dir, ec) ? dir : std::filesystem::path{};
}

std::filesystem::path data_dir() {
  static const std::filesystem::path dir = find_data_dir();
  return dir;
}

std::string read_data_file(const std::filesystem::path& relative) {
  auto path = data_dir() / relative;
  inputs::note_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw FatalError("cannot read " + path.string() + " (bookbuild's data folder; see BOOKBUILD_DATA_DIR)");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace bb::assets
