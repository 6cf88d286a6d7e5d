// Drift (diff/compare.hpp): a number the source edition changed that a translation still shows. For a
// change "old -> new" in the source's chapter, a translation's same chapter drifts when it shows a
// number equal to "old" (in value and kind, to the digits either shows) more often than the source
// still does: each such surplus number nearest the change's place is reported. Which numbers count:
// for a bound literal, the translation's literal bound to the same expression; for a number typed by
// hand or computed, the numbers the translation types by hand.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "diff/compare.hpp"

namespace bb::diff {

namespace {

bool close(double a, double b, double half_a, double half_b) {
  return std::fabs(a - b) <= std::max(half_a, half_b) + 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// Equal in value and kind, to the digits either shows. A unit bookbuild does not know ("8 卡" beside
// "8 cards") compares the numbers as written.
bool same_number(const Reading& a, const Reading& b) {
  if (a.dim != Reading::kUnknownDim && b.dim != Reading::kUnknownDim)
    return a.dim == b.dim && close(a.value, b.value, a.half_step, b.half_step);
  return close(a.raw, b.raw, a.raw_half_step, b.raw_half_step);
}

bool shows_a_number(Kind k) {
  return k == Kind::Computed || k == Kind::Bound || k == Kind::Typed;
}

int last_line(const ChapterItems& c) {
  int n = 1;
  for (const auto& i : c.items) n = std::max(n, i.line);
  return n;
}

}  // namespace

std::vector<Drift> find_drift(const Snapshot& head, const std::vector<Change>& changes) {
  std::map<std::pair<std::string, std::string>, const ChapterItems*> by_key;  // (edition, chapter key)
  std::map<std::pair<std::string, std::string>, const ChapterItems*> by_file;
  for (const auto& c : head.chapters) by_key[{c.edition, c.key}] = &c, by_file[{c.edition, c.file}] = &c;
  // The places that changed: a translation's number that changed did not drift.
  std::set<std::tuple<std::string, std::string, int, int>> changed;
  for (const auto& c : changes) changed.insert({c.edition, c.file, c.line, c.col});
  std::set<const Item*> reported;
  std::vector<Drift> out;
  for (const auto& c : changes) {
    if (c.edition != head.source_edition || !shows_a_number(c.kind) || !c.before_reading || !c.after_reading)
      continue;
    const auto src = by_file.find({c.edition, c.file});
    if (src == by_file.end()) continue;
    const Reading& old = *c.before_reading;
    // The numbers that answer to the change in each edition: the same bound literal (its expression)
    // for a bound one; the numbers typed by hand for a typed or computed one (computed numbers and
    // bound literals are the same in every edition by the parity check).
    const std::string* expr = c.kind == Kind::Bound ? &c.what : nullptr;
    auto answers = [&](const Item& i) {
      return (expr ? i.kind == Kind::Bound && i.identity == *expr : i.kind == Kind::Typed) && i.reading &&
             same_number(*i.reading, old) && !reported.contains(&i);
    };
    auto count_old = [&](const ChapterItems& ch) {
      return std::count_if(ch.items.begin(), ch.items.end(), answers);
    };
    const auto kept_in_source = count_old(*src->second);
    const double where = static_cast<double>(c.line) / last_line(*src->second);
    for (const auto& edition : head.editions) {
      if (edition == head.source_edition) continue;
      const auto t = by_key.find({edition, c.chapter});
      if (t == by_key.end()) continue;
      const ChapterItems& ch = *t->second;
      auto surplus = count_old(ch) - kept_in_source;
      if (surplus <= 0) continue;
      // The translation's own typed and bound numbers equal to the old value, nearest the change first.
      std::vector<const Item*> candidates;
      for (const auto& i : ch.items)
        if (answers(i) && !changed.contains({ch.edition, ch.file, i.line, i.col})) candidates.push_back(&i);
      const double lines = last_line(ch);
      std::stable_sort(candidates.begin(), candidates.end(), [&](const Item* a, const Item* b) {
        return std::fabs(a->line / lines - where) < std::fabs(b->line / lines - where);
      });
      for (const Item* i : candidates) {
        if (surplus-- <= 0) break;
        reported.insert(i);
        out.push_back({ch.edition, ch.key, ch.file, ch.index, i->line, i->col, i->value, c.file, c.line,
                       c.before, c.after});
      }
    }
  }
  auto order = [&](const std::string& e) {
    return std::find(head.editions.begin(), head.editions.end(), e) - head.editions.begin();
  };
  std::sort(out.begin(), out.end(), [&](const Drift& a, const Drift& b) {
    return std::make_tuple(order(a.edition), a.chapter_index, a.file, a.line, a.col) <
           std::make_tuple(order(b.edition), b.chapter_index, b.file, b.line, b.col);
  });
  return out;
}

}  // namespace bb::diff
