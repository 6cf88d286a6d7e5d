// The filter pipeline. The target table is complete for all editions before any reference is
// resolved, so a reference may point forwards, backwards or into another chapter.
#include "filters/pipeline.hpp"

#include <algorithm>
#include <future>
#include <iterator>
#include <set>

#include "filters/crossref.hpp"
#include "filters/links.hpp"
#include "filters/math_check.hpp"
#include "filters/numbering.hpp"

namespace bb::filters {

Resolution resolve(book::Book& book, Diagnostics& diags, const ResolveOptions& options) {
  Resolution r;
  r.repository = options.repository ? *options.repository
                                    : repo::find_repository(book.config.root, book.config.repository);
  r.commit = r.repository.revision();
  {
    Diagnostics::Scope scope(diags, "refs");
    NumberingPolicy policy{book.config.number_punctuation, book.config.number_order,
                           book.config.section_order};
    for (auto& eb : book.editions)
      for (auto& ch : eb.chapters) number_chapter(eb.edition, ch, r.targets, diags, policy);
  }

  // With the target table complete, editions resolve independently: one thread each.
  std::vector<std::vector<Binding>> bindings(book.editions.size());
  std::vector<std::future<void>> work;
  for (std::size_t e = 0; e < book.editions.size(); ++e) {
    work.push_back(std::async(std::launch::async, [&, e] {
      auto& eb = book.editions[e];
      CrossRefContext xref{eb.edition, r.targets, {}, book.config.plain_references};
      for (const auto& ch : eb.chapters) xref.chapters_in_build.insert(ch.number);
      ChapterIds ids;
      {
        Diagnostics::Scope scope(diags, "links");
        for (auto& ch : eb.chapters) ids[ch.key] = settle_ids(ch, diags);
      }
      LinkContext links{book.config, eb, r.targets, r.repository, ids};
      for (auto& ch : eb.chapters) {
        {
          Diagnostics::Scope scope(diags, "refs");
          resolve_crossrefs(ch, xref, diags);
        }
        {
          Diagnostics::Scope scope(diags, "links");
          resolve_links(ch, links, diags);
        }
        {
          Diagnostics::Scope scope(diags, "numbers");
          resolve_calc_numbers(ch, eb.edition, options.evaluate, bindings[e], diags);
        }
        Diagnostics::Scope scope(diags, "math");
        check_math(ch, diags);
      }
    }));
  }
  for (auto& w : work) w.get();
  // Moved, into room made once: copying them held every binding twice (a tenth of a large book's peak).
  std::size_t total = 0;
  for (const auto& b : bindings) total += b.size();
  r.bindings.reserve(r.bindings.size() + total);
  for (auto& b : bindings) {
    r.bindings.insert(r.bindings.end(), std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()));
    std::vector<Binding>().swap(b);
  }

  // Translations should carry the same labels as the source edition, chapter by chapter, so that
  // every reference has a counterpart in every language.
  const book::EditionBook* source = book.edition(book.config.source_edition);
  Diagnostics::Scope scope(diags, "refs");
  if (source) {
    for (const auto& eb : book.editions) {
      if (&eb == source) continue;
      for (const auto& ch : eb.chapters) {
        if (!source->chapter(ch.key)) continue;
        auto want = r.targets.labels_of(source->edition.id, ch.key);
        auto have = r.targets.labels_of(eb.edition.id, ch.key);
        std::sort(want.begin(), want.end());
        std::sort(have.begin(), have.end());
        std::vector<std::string> missing;
        std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(missing));
        for (const auto& label : missing)
          diags.warning({ch.path, 1, 1}, "label `" + label + "` of the " + source->edition.id +
                                             " edition has no counterpart in this translation");
      }
    }
  }
  return r;
}

}  // namespace bb::filters
