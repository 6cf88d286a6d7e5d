// "Did you mean …?": the known name nearest to a mistyped one, for every message that names something
// unknown (a command, a key, a label, a result field, a model or a device). Header-only, on nothing but
// the standard library, so that the calc library (which depends on no other part of the builder) uses
// it too.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::text {

namespace suggest_detail {

// Code points with ASCII letters in lower case; a malformed byte counts as one code point.
inline std::u32string folded(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    std::size_t k = 1;
    for (; k < n && i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80; ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (k < n) c = b, k = 1;  // cut short: the lead byte alone
    out += c >= U'A' && c <= U'Z' ? c - U'A' + U'a' : c;
    i += k;
  }
  return out;
}

}  // namespace suggest_detail

// Edits (insert, delete, substitute, swap two neighbours) between two words, by code point and
// ignoring ASCII case: "chek" → "check" is 1, "GiB" → "gib" is 0, "标记" → "标签" is 1.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::u32string x = suggest_detail::folded(a), y = suggest_detail::folded(b);
  // Three rows of the dynamic programme: two back for a swap of neighbours.
  std::vector<std::size_t> before(y.size() + 1), last(y.size() + 1), row(y.size() + 1);
  for (std::size_t j = 0; j <= y.size(); ++j) last[j] = j;
  for (std::size_t i = 1; i <= x.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= y.size(); ++j) {
      const std::size_t cost = x[i - 1] == y[j - 1] ? 0 : 1;
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + cost});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
        row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, last);
    std::swap(last, row);
  }
  return last[y.size()];
}

// The candidate nearest to `word`, if it is near enough to be what was meant: at most one edit in
// every three code points of the word (at least one edit), and not `word` itself. Ties: the first.
inline std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t length = suggest_detail::folded(word).size();
  std::size_t best_distance = std::max<std::size_t>(1, length / 3) + 1;
  const std::string* best = nullptr;
  for (const auto& c : candidates) {
    if (c == word) continue;
    // The difference of the lengths bounds the distance from below: most of a long list is skipped.
    const std::size_t other = suggest_detail::folded(c).size();
    if ((other > length ? other - length : length - other) >= best_distance) continue;
    if (const std::size_t d = edit_distance(word, c); d < best_distance) {
      best_distance = d;
      best = &c;
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

// " (did you mean `x`?)" for the closest candidate, or "" when none is close: ready to append to a
// message.
inline std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  auto c = closest(word, candidates);
  return c ? " (did you mean `" + *c + "`?)" : "";
}

}  // namespace bb::text
