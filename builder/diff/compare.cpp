// Comparing two snapshots (diff/compare.hpp): chapters paired by edition and manuscript, each kind of
// number lined up by identity (diff/align.hpp), values compared; then drift, redraws and data files.
#include "diff/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "diff/align.hpp"

namespace bb::diff {

namespace {

std::optional<double> relative_change(const Item* before, const Item* after) {
  if (!before || !after || !before->reading || !after->reading) return std::nullopt;
  if (before->reading->dim != after->reading->dim || before->reading->value == 0) return std::nullopt;
  return (after->reading->value - before->reading->value) / std::fabs(before->reading->value);
}

// The items of one kind of a chapter, in book order.
std::vector<const Item*> of_kind(const ChapterItems* c, Kind k) {
  std::vector<const Item*> out;
  if (c)
    for (const auto& i : c->items)
      if (i.kind == k) out.push_back(&i);
  return out;
}

std::vector<std::string> identities(const std::vector<const Item*>& items) {
  std::vector<std::string> out;
  out.reserve(items.size());
  for (const auto* i : items) out.push_back(i->identity);
  return out;
}

constexpr Kind kKinds[] = {Kind::Computed, Kind::Bound, Kind::BoundSource, Kind::Cited,
                           Kind::Typed,    Kind::Chart, Kind::Numbered,    Kind::CrossRef};

// The changes between one chapter at BASE (`b`, null when new) and at HEAD (`h`, null when gone).
void compare_chapter(const ChapterItems* b, const ChapterItems* h, std::vector<Change>& out) {
  const ChapterItems& at = h ? *h : *b;
  for (Kind k : kKinds) {
    const auto before = of_kind(b, k), after = of_kind(h, k);
    for (const Aligned& a : align(identities(before), identities(after))) {
      const Item* x = a.before >= 0 ? before[static_cast<std::size_t>(a.before)] : nullptr;
      const Item* y = a.after >= 0 ? after[static_cast<std::size_t>(a.after)] : nullptr;
      if (x && y && x->value == y->value) continue;
      const Item& place = y ? *y : *x;
      out.push_back({k, at.edition, at.key, (y ? *h : *b).file, at.index, place.line, place.col, place.what,
                     x ? x->value : "", y ? y->value : "", relative_change(x, y),
                     x ? x->reading : std::nullopt, y ? y->reading : std::nullopt});
    }
  }
}

std::vector<Redraw> redraws(const Snapshot& base, const Snapshot& head) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::uint64_t>> drawn;
  for (const auto& d : base.drawings) drawn[{d.edition, d.file, d.spec}].push_back(d.hash);
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
  std::vector<Redraw> out;
  for (const auto& d : head.drawings) {
    const auto key = std::make_tuple(d.edition, d.file, d.spec);
    const std::size_t n = seen[key]++;
    const auto it = drawn.find(key);
    if (it == drawn.end() || n >= it->second.size() || it->second[n] != d.hash)
      out.push_back({d.edition, d.file, d.spec, d.line});
  }
  return out;
}

}  // namespace

Report compare(const Snapshot& base, const Snapshot& head) {
  Report r;
  r.source_edition = head.source_edition;
  r.editions = head.editions;
  r.base_errors = base.errors;
  r.head_errors = head.errors;
  std::map<std::pair<std::string, std::string>, const ChapterItems*> before;
  for (const auto& c : base.chapters) before[{c.edition, c.file}] = &c;
  for (const auto& c : head.chapters) {
    if (c.edition == head.source_edition) {
      if (r.titles.size() <= c.index) r.titles.resize(c.index + 1);
      r.titles[c.index] = c.title;
    }
    const auto it = before.find({c.edition, c.file});
    compare_chapter(it == before.end() ? nullptr : it->second, &c, r.changes);
    if (it != before.end()) before.erase(it);
  }
  for (const auto& [key, c] : before) compare_chapter(c, nullptr, r.changes);
  auto order = [&](const std::string& edition) {
    return std::find(r.editions.begin(), r.editions.end(), edition) - r.editions.begin();
  };
  std::stable_sort(r.changes.begin(), r.changes.end(), [&](const Change& a, const Change& b) {
    return std::make_tuple(order(a.edition), a.chapter_index, a.file, a.line, a.col, a.kind) <
           std::make_tuple(order(b.edition), b.chapter_index, b.file, b.line, b.col, b.kind);
  });
  r.drift = find_drift(head, r.changes);
  r.redraws = redraws(base, head);
  r.data = data_changes(base.calculations, head.calculations, r.changes);
  return r;
}

}  // namespace bb::diff
