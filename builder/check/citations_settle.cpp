// Typed numbers held to numbers.lock and the fitting rules (see citations_settle.hpp).
#include "check/citations_settle.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "check/citations_derive.hpp"
#include "text/unicode.hpp"

namespace bb::check {

namespace {

// Digits masked: a context still finds its number after a neighbour's digits changed.
std::string masked(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c >= '0' && c <= '9') c = '#';
  return out;
}

// The letters in `s` (of any script): what tells one context from another ("权重 | " names a table
// row; "# | " names nothing).
std::size_t letters(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    n += text::is_letter(text::decode_utf8(s, i, len)) ? 1 : 0;
    i += len;
  }
  return n;
}

// The pairs of code points of a context (both sides, digits masked), for a likeness of two contexts.
std::multiset<std::string> pairs_of(const std::string& before, const std::string& after) {
  const std::string s = masked(before) + '\x1f' + masked(after);
  std::vector<std::string> cps;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
    cps.push_back(s.substr(i, n));
    i += n;
  }
  std::multiset<std::string> out;
  for (std::size_t i = 0; i + 1 < cps.size(); ++i) out.insert(cps[i] + cps[i + 1]);
  return out;
}

// How alike two contexts are: the share of their pairs of code points in common (Dice), 0 to 1.
double likeness(const std::multiset<std::string>& a, const std::multiset<std::string>& b) {
  if (a.empty() || b.empty()) return 0;
  std::vector<std::string> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return 2.0 * static_cast<double>(common.size()) / static_cast<double>(a.size() + b.size());
}

// The last pass: an entry still unmatched takes the number of the same digits, in the same file, whose
// context is most like its own — words were added or removed right next to it — when that context is
// alike enough and no other number of those digits is as alike.
void near_matches(const std::vector<LockEntry>& entries, const std::vector<ReadNumber>& read,
                  std::vector<long>& found, std::vector<bool>& taken) {
  constexpr double kAlike = 0.4;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    if (found[e] >= 0) continue;
    const auto mine = pairs_of(entries[e].before, entries[e].after);
    double best = 0, second = 0;
    long at = -1;
    for (std::size_t i = 0; i < read.size(); ++i) {
      if (taken[i] || read[i].file != entries[e].file || read[i].number.text != entries[e].text) continue;
      const double l = likeness(mine, pairs_of(read[i].before, read[i].after));
      if (l > best) {
        second = best, best = l, at = static_cast<long>(i);
      } else if (l > second) {
        second = l;
      }
    }
    if (at < 0 || best < kAlike || second >= best) continue;
    found[e] = at;
    taken[static_cast<std::size_t>(at)] = true;
  }
}

// Which read number each entry of the lock stands for (-1: none), matched per file in passes, each on
// what the ones before left: the number and its context as they were; the same with the digits of the
// context masked (a neighbour's digits changed); the context both sides, masked (the number itself was
// changed); the number and one side, when that side says enough (the other was edited); the number
// in the most alike context (near_matches). A number whose sentence was rewritten around it is not
// found: its entry is an error until `--lock` is run again, never bound to a number elsewhere.
std::vector<long> match_entries(const std::vector<LockEntry>& entries, const std::vector<ReadNumber>& read) {
  std::vector<long> found(entries.size(), -1);
  std::vector<bool> taken(read.size(), false);
  using Key = std::function<std::string(const std::string& before, const std::string& text,
                                        const std::string& after)>;
  auto pass = [&](const Key& key) {
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> open;  // (file, key) → reads
    for (std::size_t i = 0; i < read.size(); ++i) {
      if (taken[i]) continue;
      std::string k = key(read[i].before, read[i].number.text, read[i].after);
      if (!k.empty()) open[{read[i].file, std::move(k)}].push_back(i);
    }
    for (std::size_t e = 0; e < entries.size(); ++e) {
      if (found[e] >= 0) continue;
      const std::string k = key(entries[e].before, entries[e].text, entries[e].after);
      auto it = k.empty() ? open.end() : open.find({entries[e].file, k});
      if (it == open.end()) continue;
      auto& list = it->second;
      const auto next = std::find_if(list.begin(), list.end(), [&](std::size_t i) { return !taken[i]; });
      if (next == list.end()) continue;
      found[e] = static_cast<long>(*next);
      taken[*next] = true;
    }
  };
  const char sep = '\x1f';
  pass([&](const auto& b, const auto& t, const auto& a) { return b + sep + t + sep + a; });
  pass([&](const auto& b, const auto& t, const auto& a) { return masked(b) + sep + t + sep + masked(a); });
  // What is left after the context as it was: only numbers in citing text (those the lock is made of)
  // may take an entry, never a number elsewhere that merely has the same digits.
  for (std::size_t i = 0; i < read.size(); ++i) taken[i] = taken[i] || !read[i].citing;
  pass([&](const auto& b, const auto&, const auto& a) {
    return letters(b) + letters(a) < 2 ? std::string() : masked(b) + sep + masked(a);
  });
  pass([&](const auto& b, const auto& t, const auto&) {
    return letters(b) < 3 ? std::string() : masked(b) + sep + t + sep + '<';
  });
  pass([&](const auto&, const auto& t, const auto& a) {
    return letters(a) < 3 ? std::string() : std::string(1, '>') + sep + t + sep + masked(a);
  });
  near_matches(entries, read, found, taken);
  return found;
}

std::string field_name(const ResultFile& f, const ResultField& x) {
  return f.name + "#" + x.pointer;
}

std::string value_text(double v) {
  return nlohmann::json(v).dump();
}

// The reason a number the rules leave unchecked is unchecked.
std::string reason_of(const ReadNumber& r, const BindOutcome& b) {
  if (!b.candidates.empty()) return "ambiguous";
  if (r.some_missing) return "cites-missing-result";
  if (r.number.range) return "range-bound";
  return "no-field-fits";
}

struct Settler {
  CitationsReport& report;
  ResultFiles& results;
  const NumbersLock& lock;
  const SettleOptions& opt;
  Diagnostics& diags;
  LockUpdate update;
  std::vector<FieldRef> bound;  // per read number: the one field it was checked against
  struct Pending {
    std::size_t read;                  // the number
    CitationEntry entry;               // what the rules made of it
    bool mismatch;                     // near a field but not it (else: no field fits)
    bool in_lock;                      // numbers.lock holds an (open) entry for it
    std::vector<FieldRef> candidates;  // an ambiguous end of a range: the fields that fit it
  };
  // Numbers no field states, settled once every other is: the ones their sentence derives from two
  // fields it states are checked, the others unchecked (or mismatches).
  std::vector<Pending> pending;

  std::string lock_ref(const LockEntry& e) const {
    return lock.path.filename().string() + ":" + std::to_string(e.line);
  }

  CitationEntry entry(const ReadNumber& r) const {
    CitationEntry e;
    e.loc = r.number.loc;
    e.text = r.number.text;
    e.number = r.number;
    return e;
  }

  // The field a lock names ("results/x.json#/a"): {nullptr, nullptr} when its file is gone,
  // {file, nullptr} when the file no longer holds it.
  FieldRef field_of(const std::string& name) const {
    const auto hash = name.find('#');
    const ResultFile* file = results.get(name.substr(0, hash));
    if (!file) return {nullptr, nullptr};
    const std::string pointer = name.substr(hash + 1);
    for (const auto& f : file->fields)
      if (f.pointer == pointer) return {file, &f};
    return {file, nullptr};
  }

  // What is wrong with a field a lock names, or "" when it holds a number.
  static std::string lost(const std::string& name, const FieldRef& f) {
    if (!f.first) return "is locked to " + name + ", whose file is no longer in the book";
    if (!f.second) return "is locked to " + name + ", which no longer holds a number";
    return {};
  }

  // A number held to the field its entry names (or to what its two fields derive); false (and an
  // error, unless writing the lock) when it does not state it.
  bool check_locked(const ReadNumber& r, const LockEntry& le, CitationEntry& out, FieldRef& bound) {
    const FieldRef a = field_of(le.field);
    const std::optional<DeriveOp> op = derive_op(le.derive);
    const FieldRef b = op ? field_of(le.of) : FieldRef{nullptr, nullptr};
    out.how = "lock";
    std::optional<ResultField> stated;
    if (a.second && !op) stated = *a.second;
    if (a.second && op && b.second) stated = derive_field(*op, *a.second, *b.second);
    if (a.second) {
      out.result = a.first->path, out.field = a.second->pointer, out.value = stated ? stated->raw : 0;
      if (op) out.derive = le.derive, out.of = le.of;
    }
    if (stated && states(r.number, *stated)) {
      if (!op) bound = a;
      return true;
    }
    if (opt.write_lock) return false;
    std::string why = lost(le.field, a);
    if (why.empty() && op) why = lost(le.of, b);
    if (why.empty() && !stated)
      why = "is locked to the " + le.derive + " of " + le.field + " and " + le.of +
            ", which no longer combine (their units differ)";
    else if (why.empty())
      why = "does not state " + (op ? "the " + le.derive + " of " + le.field + " and " + le.of : le.field) +
            " it is locked to: " + value_text(stated->raw) +
            (le.value && *le.value != stated->raw ? " (" + value_text(*le.value) + " when locked)" : "");
    diags.error(r.number.loc, "`" + r.number.text + "` " + why + " (" + lock_ref(le) +
                                  "; after an intended change, `check numbers --lock` updates the lock)");
    report.mismatches.push_back(out);
    return false;
  }

  LockEntry fresh_entry(const ReadNumber& r) const {
    LockEntry e;
    e.file = r.file;
    e.before = r.before;
    e.text = r.number.text;
    e.after = r.after;
    return e;
  }

  // The rules' verdict on a number no lock entry holds (or whose entry is open).
  void by_rule(std::size_t i, const ReadNumber& r, const LockEntry* le, LockEntry* out) {
    if (!r.citing) return;
    ++report.citing;
    BindOutcome b = bind_number(r.number, r.cited, r.clause_before, r.clause_after);
    // A cited result the book lacks may hold the value: no disagreement can be certain.
    if (b.binding == Binding::Mismatch && r.some_missing) b = {};
    CitationEntry e = entry(r);
    e.others = b.others;
    if (b.field) e.result = b.file->path, e.field = b.field->pointer, e.value = b.field->raw;
    switch (b.binding) {
      case Binding::Checked:
        e.how = "rule";
        if (lock.present && !le) ++report.not_in_lock;
        if (out) out->field = field_name(*b.file, *b.field), out->value = b.field->raw;
        bound[i] = {b.file, b.field};
        report.checked.push_back(std::move(e));
        return;
      case Binding::Mismatch:
        // Near a field but not it: an error, unless the sentence derives it (derive_pending).
        pending.push_back({i, std::move(e), true, le != nullptr, {}});
        return;
      case Binding::Unchecked: break;
    }
    if (le && !le->waive.empty()) {
      e.reason = "waived";
      if (out) out->waive = le->waive;
      report.waived.push_back(std::move(e));
      return;
    }
    e.reason = reason_of(r, b);
    if (e.reason == "cites-missing-result") e.missing = r.missing;
    if (out) {
      out->reason = e.reason;
      for (const auto& [f, x] : b.candidates) out->candidates.push_back(field_name(*f, *x));
    }
    if (e.reason == "no-field-fits")
      pending.push_back({i, std::move(e), false, le != nullptr, {}});
    else if (e.reason == "ambiguous" && r.number.range)
      pending.push_back({i, std::move(e), false, le != nullptr, b.candidates});
    else
      report.unchecked.push_back(std::move(e));
  }

  // An end of a range ("1.2–2.3 μs") that several fields fit, whose other end is bound to a field:
  // the one candidate beside that field (the other element of its pair, a key of the same object).
  std::optional<FieldRef> range_partner(const Pending& p) const {
    auto parent = [](const std::string& pointer) { return pointer.substr(0, pointer.rfind('/')); };
    for (std::size_t j : {p.read - 1, p.read + 1}) {
      if (j >= report.read.size() || report.read[j].block != report.read[p.read].block ||
          !report.read[j].number.range || !bound[j].second)
        continue;
      std::optional<FieldRef> pick;
      int picks = 0;
      for (const auto& c : p.candidates)
        if (c.first == bound[j].first && c.second != bound[j].second &&
            parent(c.second->pointer) == parent(bound[j].second->pointer))
          pick = c, ++picks;
      if (picks == 1) return pick;
    }
    return std::nullopt;
  }

  // A number no field fits, derived by its sentence from two fields the sentence states: checked
  // when the derivation is unique (citations_derive.hpp).
  void derive_pending(const std::map<std::size_t, std::size_t>& entry_at) {
    for (Pending& p : pending) {
      const ReadNumber& r = report.read[p.read];
      CitationEntry& e = p.entry;
      if (!p.candidates.empty()) {
        const auto pick = range_partner(p);
        if (!pick) {
          report.unchecked.push_back(std::move(e));
          continue;
        }
        e.reason.clear();
        e.how = "range";
        bound[p.read] = *pick;
        e.result = pick->first->path, e.field = pick->second->pointer, e.value = pick->second->raw;
        if (lock.present && !p.in_lock) ++report.not_in_lock;
        if (auto it = entry_at.find(p.read); it != entry_at.end()) {
          LockEntry& out = update.entries[it->second];
          out.field = field_name(*pick->first, *pick->second), out.value = pick->second->raw;
          out.reason.clear(), out.candidates.clear();
        }
        report.checked.push_back(std::move(e));
        continue;
      }
      std::vector<FieldRef> fields;
      if (auto it = report.block_fields.find(r.block); it != report.block_fields.end()) fields = it->second;
      for (std::size_t j = 0; j < report.read.size(); ++j)
        if (report.read[j].block == r.block && bound[j].second &&
            std::find(fields.begin(), fields.end(), bound[j]) == fields.end())
          fields.push_back(bound[j]);
      const auto d = unique_derivation(r.number, fields);
      if (!d && p.mismatch) {
        diags.error(r.number.loc, "`" + r.number.text + "` disagrees with the result its text cites: " +
                                      e.result + " " + e.field + " = " + value_text(e.value) +
                                      " (no field of that result fits the digits shown)");
        report.mismatches.push_back(std::move(e));
        continue;
      }
      if (!d) {
        report.unchecked.push_back(std::move(e));
        continue;
      }
      e.reason.clear();
      e.how = "derived";
      e.result = d->a.first->path, e.field = d->a.second->pointer, e.value = d->value.raw;
      e.derive = derive_name(d->op), e.of = field_name(*d->b.first, *d->b.second);
      if (lock.present && !p.in_lock) ++report.not_in_lock;
      if (auto it = entry_at.find(p.read); it != entry_at.end()) {
        LockEntry& out = update.entries[it->second];
        out.field = field_name(*d->a.first, *d->a.second);
        out.derive = e.derive, out.of = e.of, out.value = d->value.raw;
        out.reason.clear(), out.candidates.clear();
      }
      report.checked.push_back(std::move(e));
    }
  }

  void strict_errors() {
    if (!opt.strict || opt.write_lock) return;
    for (const auto& e : report.unchecked)
      diags.error(e.loc, "`" + e.text + "` is in text citing a result but checked against none " +
                             "of its fields (" + e.reason + "): set its field in numbers.lock, or " +
                             "waive it there with a reason (`check numbers --lock` writes the entry)");
  }

  void settle() {
    bound.assign(report.read.size(), {nullptr, nullptr});
    std::map<std::size_t, std::size_t> entry_at;  // read number → its entry in the update
    const std::vector<long> found = match_entries(lock.entries, report.read);
    std::vector<const LockEntry*> entry_of(report.read.size(), nullptr);
    for (std::size_t e = 0; e < found.size(); ++e)
      if (found[e] >= 0) entry_of[static_cast<std::size_t>(found[e])] = &lock.entries[e];
    for (std::size_t i = 0; i < report.read.size(); ++i) {
      const ReadNumber& r = report.read[i];
      const LockEntry* le = entry_of[i];
      LockEntry next = fresh_entry(r);
      LockEntry* out = opt.write_lock ? &next : nullptr;
      bool kept = r.citing;
      if (le && !le->field.empty()) {
        ++report.citing;
        CitationEntry e = entry(r);
        if (check_locked(r, *le, e, bound[i])) {
          next.field = le->field, next.value = e.value, next.waive = le->waive;
          next.derive = le->derive, next.of = le->of;
          report.checked.push_back(std::move(e));
          kept = true;
        } else if (opt.write_lock) {
          --report.citing;
          by_rule(i, r, le, out);  // the text changed on purpose: what the rules make of it now
        }
      } else {
        by_rule(i, r, le, out);
      }
      if (opt.write_lock && kept) {
        entry_at[i] = update.entries.size();
        note(le, next);
      }
    }
    derive_pending(entry_at);
    strict_errors();
    for (std::size_t e = 0; e < found.size(); ++e) {
      if (found[e] >= 0) continue;
      const LockEntry& le = lock.entries[e];
      if (opt.write_lock) {
        ++update.removed;
        update.changes.push_back("removed " + le.file + ": " + lock_place(le));
        continue;
      }
      // An open entry locks nothing; a waiver that lost its number is a person's decision gone.
      if (le.field.empty()) {
        if (!le.waive.empty())
          diags.warning({lock.path, le.line, 1}, "the waived number `" + le.text + "` in " + le.file +
                                                     " is no longer found there (“" + lock_place(le) +
                                                     "”): `check numbers --lock` drops its entry");
        continue;
      }
      diags.error({lock.path, le.line, 1}, "the number `" + le.text + "` locked in " + le.file +
                                               " is no longer found there (“" + lock_place(le) +
                                               "”): if it was removed on purpose, `check numbers --lock` "
                                               "drops its entry");
    }
    if (!opt.write_lock) return;
    pick_from_source();
    tally();
  }

  std::vector<const LockEntry*> previous;  // per entry of the update: the one it replaces, if any

  void note(const LockEntry* le, LockEntry next) {
    previous.push_back(le);
    update.entries.push_back(std::move(next));
  }

  // What --lock changed, once every entry is final (derived, picked from the source edition).
  static std::string shown(const LockEntry& e) {
    if (e.field.empty()) return e.reason.empty() ? "(open)" : "(open: " + e.reason + ")";
    return e.derive.empty() ? e.field : e.derive + " of " + e.field + " and " + e.of;
  }
  void tally() {
    for (std::size_t k = 0; k < update.entries.size(); ++k) {
      const LockEntry* le = previous[k];
      const LockEntry& next = update.entries[k];
      if (!le) {
        ++update.added;
      } else if (le->field != next.field || le->text != next.text || le->waive != next.waive ||
                 le->derive != next.derive || le->of != next.of) {
        ++update.changed;
        update.changes.push_back("changed " + next.file + ": " + lock_place(*le) + " " +
                                 (le->field.empty() ? std::string("(open)") : shown(*le)) + " -> " +
                                 lock_place(next) + " " + shown(next));
      }
    }
  }

  // A translation's open entry takes the one of its candidates that the source edition's same chapter
  // locks: the same number in every edition points at the same field.
  void pick_from_source() {
    std::map<std::string, std::set<std::string>> source_fields;  // chapter → fields locked in the source
    std::map<std::string, std::pair<std::string, std::string>> of_file;  // file → (edition, chapter)
    for (const auto& r : report.read) of_file[r.file] = {r.edition, r.chapter};
    for (const auto& e : update.entries)
      if (!e.field.empty() && of_file[e.file].first == opt.source_edition)
        source_fields[of_file[e.file].second].insert(e.field);
    for (auto& e : update.entries) {
      const auto& [edition, chapter] = of_file[e.file];
      if (!e.field.empty() || e.candidates.empty() || edition == opt.source_edition) continue;
      std::vector<std::string> in_source;
      for (const auto& c : e.candidates)
        if (source_fields[chapter].count(c)) in_source.push_back(c);
      if (in_source.size() != 1) continue;
      e.field = in_source.front();
      e.reason.clear();
      e.candidates.clear();
      const auto hash = e.field.find('#');
      if (const ResultFile* f = results.get(e.field.substr(0, hash)))
        for (const auto& x : f->fields)
          if (x.pointer == e.field.substr(hash + 1)) e.value = x.raw;
    }
  }
};

}  // namespace

LockUpdate settle_citations(CitationsReport& report, ResultFiles& results, const NumbersLock& lock,
                            const SettleOptions& options, Diagnostics& diags) {
  report.lock_entries = static_cast<int>(lock.entries.size());
  Settler s{report, results, lock, options, diags, {}, {}, {}, {}};
  s.settle();
  // In the order of the book: files, lines, columns (bound literals were read before the rest).
  auto by_place = [](const CitationEntry& a, const CitationEntry& b) {
    return std::tie(a.loc.path, a.loc.line, a.loc.col) < std::tie(b.loc.path, b.loc.line, b.loc.col);
  };
  for (auto* list : {&report.checked, &report.unchecked, &report.mismatches, &report.waived})
    std::stable_sort(list->begin(), list->end(), by_place);
  return std::move(s.update);
}

}  // namespace bb::check
