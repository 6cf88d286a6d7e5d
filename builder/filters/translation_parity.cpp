// Labels and calc keys shared by a translation and its source (translation_parity.hpp).
#include "filters/translation_parity.hpp"

#include <chrono>
#include <map>
#include <set>

namespace bb::filters {

namespace fs = std::filesystem;

namespace {

std::string where(const SourceLoc& loc, const book::Book& book) {
  return loc.path.lexically_relative(book.config.root).generic_string() + ":" + std::to_string(loc.line);
}

// One chapter pair: where each side's labels and keys are, and which side is told.
struct Pair {
  const book::Book& book;
  const book::EditionBook& source;
  const book::EditionBook& translation;
  const book::Chapter& src;
  const book::Chapter& tr;
  bool source_side;  // the source changed last: differences are its mistakes
  Diagnostics& diags;

  // `[policy] edition-structure`: a translation made from an older commit of its source differs
  // from it until it catches up; a detected layout warns by default so that it still builds.
  void tell(const SourceLoc& at, const std::string& message) {
    switch (book.config.edition_structure) {
      case book::Policy::Error: diags.error(at, message); break;
      case book::Policy::Warning:
        diags.warning(at, message + " (a translation that lags its source; `[policy] edition-structure`)");
        break;
      default: break;
    }
  }

  // A name present on one side only: told on the changed side, at the name's own place when that
  // side has it, else at the top of that side's file, naming the other side's place.
  void one_sided(const std::string& what, const std::string& name, bool in_source, const SourceLoc& at) {
    const bool here = in_source == source_side;  // the changed side is the one that has it
    const book::EditionBook& other = in_source ? translation : source;
    if (here) {
      tell(at, what + " `" + name + "` is not in the " + other.edition.id + " edition of this chapter (" +
                   (in_source ? tr.path : src.path).lexically_relative(book.config.root).generic_string() +
                   ")");
    } else {
      const book::Chapter& told = source_side ? src : tr;
      tell({told.path, 1, 1}, what + " `" + name + "` of the " +
                                  (in_source ? source : translation).edition.id + " edition (" +
                                  where(at, book) + ") is missing from this chapter");
    }
  }
};

std::map<std::string, SourceLoc> label_places(const TargetTable& t, const std::string& edition,
                                              const std::string& chapter) {
  std::map<std::string, SourceLoc> out;
  for (const auto& label : t.labels_of(edition, chapter))
    if (const Target* target = t.by_label(edition, label)) out.emplace(label, target->loc);
  return out;
}

}  // namespace

bool source_changed_last(const fs::path& source, const fs::path& translation) {
  std::error_code a, b;
  const auto s = fs::last_write_time(source, a);
  const auto t = fs::last_write_time(translation, b);
  if (a || b) return false;
  // Files written together (a checkout, a copy) differ by seconds: that is a tie, not an edit.
  return s > t + std::chrono::minutes(1);
}

ParityCount check_translation_parity(const book::Book& book, const Resolution& r, Diagnostics& diags,
                                     const std::string& only_key) {
  ParityCount count;
  const book::EditionBook* source = book.edition(book.config.source_edition);
  if (!source) return count;
  // Where each calc key is first bound, per edition and chapter.
  std::map<std::pair<std::string, std::string>, std::map<std::string, SourceLoc>> keys;
  for (const auto& b : r.bindings)
    if (only_key.empty() || b.chapter.str() == only_key)
      keys[{b.edition.str(), b.chapter.str()}].try_emplace(b.expr, b.loc);
  for (const auto& eb : book.editions) {
    if (&eb == source) continue;
    for (const auto& ch : eb.chapters) {
      const book::Chapter* src = source->chapter(ch.key);
      if (!src || (!only_key.empty() && ch.key != only_key)) continue;
      // A chapter refused unread (line 0) has no labels or keys to compare: its own error says why.
      if (r.unread_chapters.count(source->edition.id + "/" + ch.key) ||
          r.unread_chapters.count(eb.edition.id + "/" + ch.key))
        continue;
      Pair pair{book, *source, eb, *src, ch, source_changed_last(src->path, ch.path), diags};
      auto compare = [&](const std::string& what, const std::map<std::string, SourceLoc>& want,
                         const std::map<std::string, SourceLoc>& have, int& counter) {
        for (const auto& [name, at] : want)
          if (!have.count(name)) pair.one_sided(what, name, true, at), ++counter;
        for (const auto& [name, at] : have)
          if (!want.count(name)) pair.one_sided(what, name, false, at), ++counter;
      };
      {
        Diagnostics::Scope scope(diags, "refs");
        compare("label", label_places(r.targets, source->edition.id, ch.key),
                label_places(r.targets, eb.edition.id, ch.key), count.labels);
      }
      Diagnostics::Scope scope(diags, "numbers");
      compare("calc key", keys[{source->edition.id, ch.key}], keys[{eb.edition.id, ch.key}], count.calc_keys);
    }
  }
  return count;
}

}  // namespace bb::filters
