// Cross-edition structure parity (see parity.hpp).
#include "check/parity.hpp"

#include "filters/translation_parity.hpp"

#include <algorithm>
#include <set>

namespace bb::check {

using doc::Kind;
using doc::Node;

namespace {

std::string where(const SourceLoc& loc, const book::Book& book) {
  return loc.path.lexically_relative(book.config.root).generic_string() + ":" + std::to_string(loc.line);
}

}  // namespace

std::vector<Numbered> numbered_elements(const Node& root) {
  std::vector<Numbered> out;
  doc::walk(root, [&](const Node& n) {
    if (n.number().empty()) return;
    switch (n.kind) {
      case Kind::Figure: out.push_back({"figure", n.number(), n.loc}); break;
      case Kind::Table: out.push_back({"table", n.number(), n.loc}); break;
      case Kind::DisplayMath: out.push_back({"equation", n.number(), n.loc}); break;
      case Kind::Callout: out.push_back({*n.attr("kind"), n.number(), n.loc}); break;
      case Kind::Paragraph:  // a bold-led example, or a table title above notes and sub-tables
        if (const std::string* kind = n.attr("kind")) out.push_back({*kind, n.number(), n.loc});
        break;
      default: break;
    }
  });
  return out;
}

int check_parity(const book::Book& book, const filters::Resolution& r, Diagnostics& diags) {
  NumberedElements numbered;
  for (const auto& eb : book.editions)
    for (const auto& ch : eb.chapters) numbered[{eb.edition.id, ch.key}] = numbered_elements(ch.root);
  return check_parity(book, r, numbered, diags);
}

int check_parity(const book::Book& book, const filters::Resolution& r, const NumberedElements& numbered,
                 Diagnostics& diags) {
  static const std::vector<Numbered> none;
  auto of = [&](const std::string& edition, const std::string& key) -> const std::vector<Numbered>& {
    auto it = numbered.find({edition, key});
    return it == numbered.end() ? none : it->second;
  };
  const book::EditionBook* source = book.edition(book.config.source_edition);
  if (!source) return 0;
  // `[policy] edition-structure`: a translation made from an older commit of the source differs from it
  // until it catches up; a detected layout warns by default so that it still builds.
  int errors = 0;
  const book::Policy policy = book.config.edition_structure;
  auto error = [&](const SourceLoc& at, const std::string& message) {
    if (policy == book::Policy::Ignore) return;
    if (policy == book::Policy::Error)
      diags.error(at, message);
    else
      diags.warning(at, message + " (a translation that lags its source; `[policy] edition-structure`)");
    ++errors;
  };
  for (const auto& eb : book.editions) {
    if (&eb == source) continue;
    for (const auto& ch : eb.chapters) {
      const book::Chapter* src = source->chapter(ch.key);
      if (!src) continue;
      const std::string& sid = source->edition.id;
      const std::string& tid = eb.edition.id;
      // A difference is told once, in the file changed last (filters/translation_parity.hpp).
      const bool source_side = filters::source_changed_last(src->path, ch.path);
      // Labels on one side only are the resolution's to report (filters/translation_parity.hpp); a
      // label on both sides has the same number on both.
      for (const auto& label : r.targets.labels_of(sid, ch.key)) {
        const filters::Target* s = r.targets.by_label(sid, label);
        const filters::Target* t = r.targets.by_label(tid, label);
        if (!s || !t || s->number == t->number) continue;
        const filters::Target* here = source_side ? s : t;
        const filters::Target* there = source_side ? t : s;
        error(here->loc, "label `" + label + "` is numbered " + here->number + " here but " + there->number +
                             " in the " + (source_side ? tid : sid) + " edition (" + where(there->loc, book) +
                             ")");
      }
      // Numbered elements: the same kinds and numbers in the same order.
      const auto& a = of(sid, ch.key);
      const auto& b = of(tid, ch.key);
      std::size_t n = std::min(a.size(), b.size());
      for (std::size_t i = 0; i < n; ++i)
        if (a[i].kind != b[i].kind || a[i].number != b[i].number) {
          const Numbered& here = source_side ? a[i] : b[i];
          const Numbered& there = source_side ? b[i] : a[i];
          error(here.loc, "numbered element #" + std::to_string(i + 1) + " of this chapter is " + here.kind +
                              " " + here.number + ", but in the " + (source_side ? tid : sid) +
                              " edition it is " + there.kind + " " + there.number + " (" +
                              where(there.loc, book) + ")");
          n = 0;  // one report per chapter: everything after the first difference is shifted
          break;
        }
      if (n > 0 && a.size() != b.size()) {
        const auto& extra = a.size() > b.size() ? a[n] : b[n];
        const bool extra_in_source = a.size() > b.size();
        const std::size_t here_count = source_side ? a.size() : b.size();
        const std::size_t there_count = source_side ? b.size() : a.size();
        error(extra_in_source == source_side ? extra.loc : SourceLoc{source_side ? src->path : ch.path, 1, 1},
              "this chapter has " + std::to_string(here_count) +
                  " numbered figures, tables, equations and examples, the " + (source_side ? tid : sid) +
                  " edition has " + std::to_string(there_count) + " (first unmatched: " + extra.kind + " " +
                  extra.number + " at " + where(extra.loc, book) + ")");
      }
    }
  }
  return errors;
}

}  // namespace bb::check
