// The link resolver: the one place that decides where every Link and Image of the book leads.
// After it runs, each such node carries a destination (docs/pipeline.md, "Destinations"):
//   attr dest=chapter  + attrs chapter, target — a place in a chapter of this edition (an id that exists);
//   attr dest=asset    + attr asset            — an image file inside the book (path from the book root);
//   attr dest=url      + url                   — an absolute URL (the web, or the repository at the commit).
// Anything else (outside the book, missing, javascript:) is reported and the link removed, keeping
// its text. Writers map a destination to their own address and never look at a path or scheme again.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "book/book.hpp"
#include "book/paths.hpp"
#include "diag/diagnostics.hpp"
#include "filters/targets.hpp"
#include "repo/repository.hpp"

namespace bb::filters {

// Every id a chapter's outputs carry (after numbering), per chapter key: the set links are checked
// against, identical for the site, the EPUB and the LaTeX.
using ChapterIds = std::map<std::string, std::set<std::string>>;

// Makes the ids of a chapter valid and unique (the second `x` becomes `x-2`, with a warning) and
// returns them, footnote anchors included.
std::set<std::string> settle_ids(book::Chapter& chapter, Diagnostics& diags);

// The normal form of each chapter's path (book::normal_form) → the chapter's key: how a link to a
// manuscript finds its chapter. Made once per edition, not per chapter (resolve_edition).
using ChapterFiles = std::unordered_map<std::string, std::string>;
ChapterFiles chapter_files(const book::EditionBook& edition);

struct LinkContext {
  const book::Config& config;
  const book::EditionBook& edition;
  const TargetTable& targets;
  const repo::Repository& repository;
  const ChapterIds& ids;      // of this edition
  const ChapterFiles& files;  // of this edition
  book::PathGuard& guard;     // of this resolution of the edition (shared by its threads)
};

void resolve_links(book::Chapter& chapter, const LinkContext& ctx, Diagnostics& diags);

}  // namespace bb::filters
