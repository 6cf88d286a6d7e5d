// Shared by the libFuzzer harnesses: a scratch folder per process (removed at exit) and the source
// tree's location, so that harnesses can lay out a small book or site once and reuse it per input.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace bb::fuzz {

inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("bb-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] { std::filesystem::remove_all(scratch()); });
    return d;
  }();
  return dir;
}

inline void write(const std::filesystem::path& p, std::string_view bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A property the code promises broke: abort so that libFuzzer keeps the input.
inline void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace bb::fuzz
