// The filter pipeline. The target table is complete for all editions before any reference is
// resolved, so a reference may point forwards, backwards or into another chapter.
#include "filters/pipeline.hpp"

#include <algorithm>
#include <iterator>
#include <set>

#include "diag/parallel.hpp"
#include "filters/book_filters.hpp"
#include "filters/callout_titles.hpp"
#include "filters/charts.hpp"
#include "filters/citations.hpp"
#include "filters/crossref.hpp"
#include "filters/links.hpp"
#include "filters/math_check.hpp"
#include "filters/mkdocs_ids.hpp"
#include "filters/numbering.hpp"
#include "filters/translation_parity.hpp"

namespace bb::filters {

namespace {

NumberingPolicy numbering_policy(const book::Config& config) {
  return {config.number_punctuation, config.number_order, config.section_order};
}

CrossRefContext crossref_context(const book::Book& book, const book::EditionBook& eb,
                                 const TargetTable& targets) {
  CrossRefContext xref{eb.edition, targets, {}, book.config.plain_references, {}};
  for (const auto& ch : eb.chapters) {
    xref.chapters_in_build.insert(ch.number);
    if (ch.root.loc.line == 0) xref.chapters_unread.insert(ch.number);  // the front end's mark (frontend.cpp)
  }
  return xref;
}

// The book's own Lua filters of one stage over one chapter (docs/filters.md).
void book_filters(book::Chapter& ch, const book::EditionBook& eb, const book::Config& config,
                  const Resolution& r, const ResolveOptions& options, book::FilterEntry::Stage stage,
                  Diagnostics& diags) {
  run_book_filters(r.programs, ch, eb, config, options.format, stage, r.targets, options.evaluate, diags);
}

// The built-in passes after numbering and ids, for one chapter (or an edition's home page).
void resolve_builtins(book::Chapter& ch, const book::EditionBook& eb, const CrossRefContext& xref,
                      const LinkContext& links, const ResolveOptions& options, std::vector<Binding>& bindings,
                      Diagnostics& diags, ChartMemo* charts = nullptr,
                      PlaceholderMemo* placeholders = nullptr) {
  title_callouts(ch, eb.edition);
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
    resolve_charts(ch, eb.edition, options.evaluate, links.config.root, diags, charts);
  }
  {
    Diagnostics::Scope scope(diags, "numbers");
    resolve_calc_numbers(ch, eb.edition, options.evaluate, bindings, diags, placeholders);
  }
  {
    Diagnostics::Scope scope(diags, "math");
    check_math(ch, diags);
  }
}

// Everything after numbering and ids, for one chapter: the built-in passes, then the book's filters.
void resolve_chapter(book::Chapter& ch, const book::EditionBook& eb, const CrossRefContext& xref,
                     const LinkContext& links, const ResolveOptions& options, std::vector<Binding>& bindings,
                     Diagnostics& diags, const Resolution& r, ChartMemo* charts = nullptr,
                     PlaceholderMemo* placeholders = nullptr) {
  resolve_builtins(ch, eb, xref, links, options, bindings, diags, charts, placeholders);
  if (auto plan = r.citations.find(eb.edition.id); plan != r.citations.end()) {
    Diagnostics::Scope scope(diags, "refs");
    resolve_citations(ch, links.config, eb.edition, plan->second, diags);
  }
  book_filters(ch, eb, links.config, r, options, book::FilterEntry::Stage::Resolved, diags);
}

// The edition's Markdown home page, after its chapters: not numbered (its headings keep the ids
// MkDocs gave them, its address being the same as before), then resolved as a chapter is, without
// the book's Lua filters (they are written for chapters). Its page is "index": a link to one of its
// own headings is a link into chapter "index", which the writers map to the edition's index.html.
// Its computed numbers are checked (a mismatch is an error) but kept out of `r.bindings`: the home
// pages of the editions are not translations of each other, number for number.
void resolve_home(book::Book& book, book::EditionBook& eb, Resolution& r, Diagnostics& diags,
                  const ResolveOptions& options, const ChapterFiles& files, book::PathGuard& guard) {
  if (!eb.home) return;
  book::Chapter& home = *eb.home;
  mark_mkdocs_ids(home.root);
  doc::walk(home.root, [](doc::Node& n) {
    if (n.kind == doc::Kind::Heading && n.id().empty())
      if (const std::string* id = n.attr("mkdocs-id")) n.rare().id = *id;
  });
  ChapterIds ids = r.ids[eb.edition.id];
  {
    Diagnostics::Scope scope(diags, "links");
    ids[home.key] = settle_ids(home, diags);
  }
  const CrossRefContext xref = crossref_context(book, eb, r.targets);
  const LinkContext links{book.config, eb, r.targets, r.repository, ids, files, guard};
  std::vector<Binding> bindings;
  resolve_builtins(home, eb, xref, links, options, bindings, diags);
}

}  // namespace

Resolution begin_resolution(const book::Book& book, const ResolveOptions& options) {
  Resolution r;
  r.repository = options.repository ? *options.repository
                                    : repo::find_repository(book.config.root, book.config.repository);
  r.commit = r.repository.revision();
  return r;
}

void resolve_edition(book::Book& book, std::size_t edition, Resolution& r, Diagnostics& diags,
                     const ResolveOptions& options) {
  book::EditionBook& eb = book.editions.at(edition);
  if (!r.programs_read) {
    r.programs = bookfilters::load_programs(book.config, diags);
    r.programs_read = true;
  }
  for (const auto& ch : eb.chapters)
    if (ch.root.loc.line == 0) r.unread_chapters.insert(eb.edition.id + "/" + ch.key);  // frontend.cpp's mark
  parallel_for(eb.chapters.size(), [&](std::size_t c) {
    book_filters(eb.chapters[c], eb, book.config, r, options, book::FilterEntry::Stage::Parsed, diags);
  });
  {
    Diagnostics::Scope scope(diags, "refs");
    const NumberingPolicy policy = numbering_policy(book.config);
    for (auto& ch : eb.chapters) number_chapter(eb.edition, ch, r.targets, diags, policy);
  }

  // With the edition's targets complete, its chapters resolve independently, on every core: first
  // their ids (a link into another chapter checks the anchors there), then everything else.
  const std::size_t chapters = eb.chapters.size();
  std::vector<std::set<std::string>> settled(chapters);
  parallel_for(chapters, [&](std::size_t c) {
    Diagnostics::Scope scope(diags, "links");
    settled[c] = settle_ids(eb.chapters[c], diags);
  });
  ChapterIds& ids = r.ids[eb.edition.id];
  ids.clear();
  for (std::size_t c = 0; c < chapters; ++c) ids[eb.chapters[c].key] = std::move(settled[c]);
  {
    // In book order, before the chapters resolve apart: numbers by first citation, the lists' anchors.
    Diagnostics::Scope scope(diags, "refs");
    r.citations[eb.edition.id] = plan_citations(book.config, eb, ids, r.untitled_entries, diags);
  }
  const ChapterFiles& files = r.files[eb.edition.id] = chapter_files(eb);
  const CrossRefContext xref = crossref_context(book, eb, r.targets);
  std::vector<std::vector<Binding>> bindings(chapters);
  ChartMemo charts;              // each chart spec drawn once for the edition
  PlaceholderMemo placeholders;  // each distinct placeholder read once for the edition
  // One guard for the edition, shared by its chapters' threads and its home page: the root made canonical
  // once (a readlink per component), and each folder and each linked file looked at once, where a guard per
  // chapter looked at the files every chapter links to (calculations/, references/) once per chapter.
  book::PathGuard guard(book.config.root);
  parallel_for(chapters, [&](std::size_t c) {
    const LinkContext links{book.config, eb, r.targets, r.repository, ids, files, guard};
    resolve_chapter(eb.chapters[c], eb, xref, links, options, bindings[c], diags, r, &charts, &placeholders);
  });
  // Moved, into room made once per edition: copying them held every binding twice (a tenth of a large
  // book's peak). For a moment the chapter vectors and the book's hold them twice still. The room
  // grows at least twofold: made to measure for each edition, it moved every earlier edition's
  // bindings each time (5% of a 100x book's check); the room not yet filled is not written to.
  std::size_t total = r.bindings.size();
  for (const auto& b : bindings) total += b.size();
  if (total > r.bindings.capacity()) r.bindings.reserve(std::max(total, 2 * r.bindings.capacity()));
  for (auto& b : bindings) {
    r.bindings.insert(r.bindings.end(), std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()));
    std::vector<Binding>().swap(b);
  }
  resolve_home(book, eb, r, diags, options, files, guard);
}

void finish_resolution(const book::Book& book, Resolution& r, Diagnostics& diags) {
  const ParityCount differences = check_translation_parity(book, r, diags);
  r.label_differences = differences.labels;
  r.calc_key_differences = differences.calc_keys;
}

Resolution resolve(book::Book& book, Diagnostics& diags, const ResolveOptions& options) {
  Resolution r = begin_resolution(book, options);
  for (std::size_t e = 0; e < book.editions.size(); ++e) resolve_edition(book, e, r, diags, options);
  finish_resolution(book, r, diags);
  return r;
}

bool resolve_again(book::Book& book, Resolution& r, std::size_t edition, std::size_t chapter,
                   const std::string& old_title, Diagnostics& diags, const ResolveOptions& options) {
  auto& eb = book.editions.at(edition);
  auto& ch = eb.chapters.at(chapter);
  const std::string& e = eb.edition.id;
  // Numbered alone: its targets must be the ones the rest of the book was resolved against.
  TargetTable fresh;
  Diagnostics numbering;
  book_filters(ch, eb, book.config, r, options, book::FilterEntry::Stage::Parsed, numbering);
  {
    Diagnostics::Scope scope(numbering, "refs");
    number_chapter(eb.edition, ch, fresh, numbering, numbering_policy(book.config));
  }
  // Its title (as numbering leaves it) is on every page of the edition: contents, pagers.
  if (ch.title != old_title || !r.targets.same_targets(fresh, e, ch.key)) return false;
  // Citations number and list across chapters: a chapter that cites, or did, is resolved with the book.
  if (const auto plan = r.citations.find(e);
      has_citations(ch, book.config) || (plan != r.citations.end() && plan->second.citing.count(ch.key)))
    return false;
  Diagnostics settling;
  std::set<std::string> ids;
  {
    Diagnostics::Scope scope(settling, "links");
    ids = settle_ids(ch, settling);
  }
  auto& known = r.ids[e][ch.key];
  if (ids != known) return false;

  r.targets.take_places(fresh, e, ch.key);
  for (auto& d : numbering.all()) diags.add(std::move(d));
  for (auto& d : settling.all()) diags.add(std::move(d));
  const CrossRefContext xref = crossref_context(book, eb, r.targets);
  book::PathGuard guard(book.config.root);
  LinkContext links{book.config, eb, r.targets, r.repository, r.ids[e], r.files[e], guard};
  std::vector<Binding> bindings;
  resolve_chapter(ch, eb, xref, links, options, bindings, diags, r);
  // The chapter's bindings take the place of its old ones. In book order they are contiguous: found
  // by binary search and, when there are as many as before (an edit of the text), overwritten in place
  // — not erased and inserted, which moves every binding after them.
  auto place = [&](const Binding& b) {
    const book::EditionBook* other = book.edition(b.edition.str());
    const book::Chapter* c = other ? other->chapter(b.chapter.str()) : nullptr;
    return std::pair(other ? other - book.editions.data() : 0, c ? c - other->chapters.data() : 0);
  };
  const std::pair<std::ptrdiff_t, std::ptrdiff_t> here(static_cast<std::ptrdiff_t>(edition),
                                                       static_cast<std::ptrdiff_t>(chapter));
  auto lo = std::partition_point(r.bindings.begin(), r.bindings.end(),
                                 [&](const Binding& b) { return place(b) < here; });
  auto hi = std::partition_point(lo, r.bindings.end(), [&](const Binding& b) { return !(here < place(b)); });
  if (static_cast<std::size_t>(hi - lo) == bindings.size()) {
    std::move(bindings.begin(), bindings.end(), lo);
  } else {
    auto at = r.bindings.erase(lo, hi);
    r.bindings.insert(at, std::make_move_iterator(bindings.begin()), std::make_move_iterator(bindings.end()));
  }
  check_translation_parity(book, r, diags, ch.key);
  return true;
}

}  // namespace bb::filters
