// Two sequences of keys lined up, as a line diff lines up two files: the longest common subsequence
// pairs equal keys; between two such pairs, the keys left on each side are paired in order (the same
// element, changed) and what is left over is added or removed.
#pragma once

#include <string>
#include <vector>

namespace bb::diff {

// One pair: indexes into `before` and `after`; -1 on the side that lacks it (added or removed).
struct Aligned {
  long before = -1, after = -1;
  bool equal = false;  // the keys are equal (a pair of the common subsequence)
};

// In order of both sequences. Quadratic in the part between the common prefix and suffix; beyond
// `kMaxCells` cells the middle is paired in order without looking for common keys.
std::vector<Aligned> align(const std::vector<std::string>& before, const std::vector<std::string>& after);
inline constexpr std::size_t kMaxCells = std::size_t{16} << 20;

}  // namespace bb::diff
