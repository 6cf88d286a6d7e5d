// Resolving a loaded book, once, before any writer runs: numbering and the global target table for
// every edition, then cross-references, links, computed numbers and formula checks per chapter.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "bookfilters/book_filters.hpp"
#include "diag/diagnostics.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/citations.hpp"
#include "filters/links.hpp"
#include "filters/targets.hpp"
#include "repo/repository.hpp"

namespace bb::filters {

struct ResolveOptions {
  const Evaluator* evaluate = nullptr;  // computed numbers; nullptr when the book has no calculations/
  // The repository lookup, when the caller already has one (the dev server keeps it between builds).
  const repo::Repository* repository = nullptr;
  // The output the tree is resolved for, as the book's Lua filters see it (FORMAT): "html" (site),
  // "epub", "latex" or "check".
  std::string format = "html";
};

struct Resolution {
  TargetTable targets;
  std::vector<Binding> bindings;               // every placeholder and bound literal, in book order
  repo::Repository repository;                 // the one lookup: top level, commit links are pinned to, URL
  std::string commit;                          // repository.revision(), for reports
  std::map<std::string, ChapterIds> ids;       // by edition id: every chapter's ids, as links saw them
  std::map<std::string, ChapterFiles> files;   // by edition id: its chapters by manuscript path
  std::vector<bookfilters::Program> programs;  // the book's Lua filters, read once (docs/filters.md)
  bool programs_read = false;
  // Differences between translations and their source chapters, each an error already reported
  // (translation_parity.hpp): labels on one side only, calc keys bound on one side only.
  int label_differences = 0;
  int calc_key_differences = 0;
  std::map<std::string, CitationPlan> citations;  // by edition id (filters/citations.hpp)
  std::set<std::string> untitled_entries;         // bibliography entries already warned about
  // The chapters refused unread ("edition/key"; an error of their own), which have nothing to compare.
  std::set<std::string> unread_chapters;
};

Resolution resolve(book::Book& book, Diagnostics& diags, const ResolveOptions& options = {});

// resolve() in steps, for a book loaded one edition at a time (book::book_outline): begin_resolution
// finds the repository; resolve_edition numbers and resolves `book.editions[edition]`, whose chapters
// must be loaded, adding its targets, ids and bindings to `r` (references and links never leave their
// edition, so the others need not be loaded); finish_resolution makes the checks across editions,
// which read only `r` and the chapter lists. resolve() is these three over every edition.
Resolution begin_resolution(const book::Book& book, const ResolveOptions& options = {});
void resolve_edition(book::Book& book, std::size_t edition, Resolution& r, Diagnostics& diags,
                     const ResolveOptions& options = {});
void finish_resolution(const book::Book& book, Resolution& r, Diagnostics& diags);

// Resolves chapter `chapter` of `book.editions[edition]` again after it was parsed again
// (book::reload_chapter), against `r`, the resolution of the book before the change (`site --serve`).
// Other chapters read the same only if this one still has the same targets (labels, numbers,
// titles), ids and title: then it is resolved alone, its bindings in `r` are replaced, its
// diagnostics go to `diags`, and true is returned. Otherwise nothing in `r` is changed and false
// says that the whole book must be resolved again. `old_title` is the chapter's title before.
bool resolve_again(book::Book& book, Resolution& r, std::size_t edition, std::size_t chapter,
                   const std::string& old_title, Diagnostics& diags, const ResolveOptions& options = {});

}  // namespace bb::filters
