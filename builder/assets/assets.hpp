// Where bookbuild's own data files are (templates/, website/, languages/): the source tree, or the
// folder BOOKBUILD_DATA_DIR names at run time.
#pragma once

#include <filesystem>
#include <string>

namespace bb::assets {

std::filesystem::path data_dir();

// The bytes of a data file (path relative to data_dir()); a missing file is a FatalError naming it.
std::string read_data_file(const std::filesystem::path& relative);

}  // namespace bb::assets
