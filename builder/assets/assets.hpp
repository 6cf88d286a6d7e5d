// Where bookbuild's own data files are (templates/, website/, languages/): the folder BOOKBUILD_DATA_DIR
// names at run time; else <prefix>/share/bookbuild of an installed tree, found beside the executable
// (<prefix>/bin/bookbuild); else the source tree the binary was built from.
#pragma once

#include <filesystem>
#include <string>

namespace bb::assets {

std::filesystem::path data_dir();

// <prefix>/<relative> when the running executable is <prefix>/bin/bookbuild and that folder exists
// (an installed tree, wherever it was moved); empty otherwise.
std::filesystem::path installed_dir(const std::filesystem::path& relative);

// The bytes of a data file (path relative to data_dir()); a missing file is a FatalError naming it.
std::string read_data_file(const std::filesystem::path& relative);

}  // namespace bb::assets
