// Lining up two sequences of keys (diff/align.hpp): common prefix and suffix, then the longest common
// subsequence of the middle by dynamic programming.
#include "diff/align.hpp"

#include <algorithm>
#include <cstdint>

namespace bb::diff {

namespace {

// The unequal keys between two equal pairs: paired in order, the rest added or removed.
void pair_gap(long b0, long b1, long a0, long a1, std::vector<Aligned>& out) {
  while (b0 < b1 || a0 < a1) {
    Aligned x;
    if (b0 < b1) x.before = b0++;
    if (a0 < a1) x.after = a0++;
    out.push_back(x);
  }
}

}  // namespace

std::vector<Aligned> align(const std::vector<std::string>& before, const std::vector<std::string>& after) {
  std::vector<Aligned> out;
  const long nb = static_cast<long>(before.size()), na = static_cast<long>(after.size());
  long p = 0;
  while (p < nb && p < na && before[p] == after[p]) out.push_back({p, p, true}), ++p;
  long s = 0;
  while (s < nb - p && s < na - p && before[nb - 1 - s] == after[na - 1 - s]) ++s;
  const long mb = nb - p - s, ma = na - p - s;  // the middle of each
  if (static_cast<std::size_t>(mb + 1) * static_cast<std::size_t>(ma + 1) > kMaxCells) {
    pair_gap(p, p + mb, p, p + ma, out);
  } else {
    // lcs[i][j]: the longest common subsequence of the middles from i and j on.
    const long w = ma + 1;
    std::vector<std::uint32_t> lcs(static_cast<std::size_t>((mb + 1) * w), 0);
    for (long i = mb - 1; i >= 0; --i)
      for (long j = ma - 1; j >= 0; --j)
        lcs[i * w + j] = before[p + i] == after[p + j] ? lcs[(i + 1) * w + j + 1] + 1
                                                       : std::max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    long i = 0, j = 0, gi = 0, gj = 0;
    while (i < mb && j < ma) {
      if (before[p + i] == after[p + j]) {
        pair_gap(p + gi, p + i, p + gj, p + j, out);
        out.push_back({p + i, p + j, true});
        gi = ++i, gj = ++j;
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
        ++i;
      } else {
        ++j;
      }
    }
    pair_gap(p + gi, p + mb, p + gj, p + ma, out);
  }
  for (long k = 0; k < s; ++k) out.push_back({nb - s + k, na - s + k, true});
  return out;
}

}  // namespace bb::diff
