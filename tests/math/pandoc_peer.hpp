// Runs Debian's pandoc as the peer converter: many formulas through one `pandoc --mathml` call.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bb::math::test {

struct Formula {
  std::string tex;
  bool display = false;
};

// The pandoc executable: $BOOKBUILD_PANDOC, else /usr/bin/pandoc; nullopt when absent.
std::optional<std::string> pandoc_executable();

// One entry per formula: pandoc's <math> element, or empty when pandoc could not convert that
// formula (it then prints the TeX instead). Throws std::runtime_error when pandoc cannot be run
// or its output cannot be split into the formulas given.
std::vector<std::string> pandoc_mathml(const std::string& pandoc, const std::vector<Formula>& formulas);

}  // namespace bb::math::test
