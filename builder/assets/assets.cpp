// Locating and reading the tool's data files.
#include "assets/assets.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "diag/diagnostics.hpp"
#include "inputs/inputs.hpp"

namespace bb::assets {

std::filesystem::path data_dir() {
  if (const char* env = std::getenv("BOOKBUILD_DATA_DIR"); env && *env) return env;
  return BOOKBUILD_DATA_DIR;
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
