// The row a sentence names (see citations_rows.hpp).
#include "check/citations_rows.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace bb::check {

namespace {

// The labels of a field's row, one per line (ResultField::row).
std::vector<std::string> labels_of(const ResultField& f) {
  std::vector<std::string> out;
  for (std::size_t at = 0, end; (end = f.row.find('\n', at)) != std::string::npos; at = end + 1)
    out.push_back(f.row.substr(at, end - at));
  return out;
}

}  // namespace

Rows named_rows(const std::vector<FieldRef>& fits, std::string_view before, std::string_view after) {
  if (fits.size() < 2) return {};
  // Rows of one table: the fields differ only in their indices (`/combinations/13/memory_gb`,
  // `/combinations/72/memory_gb`). Fields of different keys are different quantities, which a name
  // in the sentence does not choose between.
  auto shape = [](const std::string& pointer) {
    std::string out;
    for (std::size_t i = 0; i < pointer.size(); ++i)
      if (pointer[i] >= '0' && pointer[i] <= '9' && i > 0 && pointer[i - 1] == '/') {
        while (i + 1 < pointer.size() && pointer[i + 1] != '/') ++i;
        out += '#';
      } else {
        out += pointer[i];
      }
    return out;
  };
  for (const auto& f : fits)
    if (f.first != fits.front().first || shape(f.second->pointer) != shape(fits.front().second->pointer))
      return {};
  std::map<std::string, int> rows;  // label → rows that have it
  std::set<std::string> distinct;
  for (const auto& f : fits) {
    if (!distinct.insert(f.second->row).second) continue;
    const auto labels = labels_of(*f.second);
    for (const auto& l : std::set<std::string>(labels.begin(), labels.end())) ++rows[l];
  }
  if (distinct.size() < 2) return {};
  Rows out{true, {}};
  const std::string b = row_label(before), a = row_label(after);
  // Distance from the number to the nearest naming label: before it first (names precede numbers),
  // then after it; kNone when the row is not named.
  constexpr std::size_t kNone = std::string::npos;
  auto distance = [&](const ResultField& f) {
    std::size_t best = kNone;
    for (const auto& l : labels_of(f)) {
      if (rows[l] == static_cast<int>(distinct.size())) continue;  // every row has it: names none
      if (auto at = b.rfind(l); at != std::string::npos) best = std::min(best, b.size() - at - l.size());
    }
    if (best != kNone) return best;
    for (const auto& l : labels_of(f)) {
      if (rows[l] == static_cast<int>(distinct.size())) continue;
      if (auto at = a.find(l); at != std::string::npos) best = std::min(best, b.size() + 1 + at);
    }
    return best;
  };
  std::vector<std::size_t> d;
  std::size_t nearest = kNone;
  for (const auto& f : fits) nearest = std::min(nearest, d.emplace_back(distance(*f.second)));
  for (std::size_t i = 0; i < fits.size() && nearest != kNone; ++i)
    if (d[i] == nearest) out.named.push_back(fits[i]);
  if (!out.named.empty()) return out;
  // A name every row has ("M2 Ultra", of both M2 Ultra rows with 192 GB) names them all alike.
  for (const auto& [l, count] : rows)
    if (count == static_cast<int>(distinct.size()) &&
        (b.find(l) != std::string::npos || a.find(l) != std::string::npos))
      out.named = fits;
  return out;
}

}  // namespace bb::check
