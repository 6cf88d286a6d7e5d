// The EPUB builder: one EPUB 3 per edition, from the parsed (and resolved) book. See docs/epub.md.
#pragma once

#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "repo/repository.hpp"

namespace bb::epub {

// What a math node becomes in the XHTML. `mathml` tells the package document to declare the
// chapter's `mathml` property.
struct MathMarkup {
  std::string markup;
  bool mathml = false;
};
// Renders an InlineMath or DisplayMath node; problems go to the diagnostics at the node's place.
// Called from several threads at once (chapters are rendered in parallel).
using MathRenderer = std::function<MathMarkup(const doc::Node& math, Diagnostics& diags)>;

// The fallback renderer: the TeX source, escaped, between \( \) or \[ \] (no MathML).
MathMarkup tex_as_text(const doc::Node& math, Diagnostics& diags);

struct EpubOptions {
  std::filesystem::path out;           // the folder the EPUBs are written to (<out>/epub)
  std::filesystem::path figure_cache;  // <out>/.cache/figures, shared with the site
  // <out>/.cache/epub: what each EPUB written there was (epub.cpp, "The earlier archive"), so that
  // the next build reuses its deflate streams and leaves it alone when its bytes come out the same.
  // "" = neither.
  std::filesystem::path archive_cache;
  std::string name;             // file name stem; "" = book::output_name(config)
  repo::Repository repository;  // the resolution's lookup: identifier, source time
  std::filesystem::path cover;  // cover image; "" = <edition folder>/cover.{png,jpg,jpeg}, if any
  MathRenderer math = tex_as_text;
  std::optional<std::time_t> modified;  // overrides SOURCE_DATE_EPOCH and the commit time
  // The output root whose <out>/pdf/ holds the editions' PDFs and <out>/.cache/pdf/ their page
  // records (builder/pages/): an edition whose record matches its PDF and its blocks gets print page
  // markers and a page list. "" = never.
  std::filesystem::path print_out;
  bool quiet = false;
};

// One file of the archive, in archive order.
struct EpubFile {
  std::string name;  // path inside the archive
  std::string data;
  bool compress = true;
  bool unchanged = false;  // the same bytes as this entry of zip_files' `earlier` archive
};

// The archive entries of one edition's EPUB, `mimetype` first. Problems go to `diags`.
std::vector<EpubFile> build_files(const book::Book& book, const book::EditionBook& edition,
                                  const EpubOptions& options, Diagnostics& diags);

// The bytes of the EPUB for the given entries (all entries stamped with `modified`); `earlier`: an
// archive the ZIP module wrote before, whose deflate streams are reused for the entries marked
// unchanged.
std::string zip_files(std::vector<EpubFile> files, std::time_t modified, std::string_view earlier = {});

// Builds the EPUB of every loaded edition into options.out/<name>-<edition>.epub. Nothing is
// written when there are errors; each file is replaced atomically. Returns the paths written.
// The book is taken by value: its chapter trees are rewritten in place, not copied.
std::vector<std::filesystem::path> build_epubs(book::Book book, const EpubOptions& options,
                                               Diagnostics& diags);

// build_epubs in steps, for a book loaded one edition at a time: the time every EPUB is stamped with
// (the newest of the selected editions' manuscripts, or options.modified), then each edition's
// zipped EPUB (its chapter trees are moved out of `book`), then the writing, which does nothing when
// there are errors.
struct EpubOutput {
  std::filesystem::path path;
  std::string bytes;
  bool unchanged = false;  // the file at `path` is this build's, with these very bytes: not rewritten
  std::string entries;     // the time stamp, then each entry's size, checksum, stored/deflated and name,
                           // for the archive cache's record
};
std::time_t source_time(const book::Book& book, const EpubOptions& options);
EpubOutput render_epub(book::Book& book, book::EditionBook& edition, const EpubOptions& options,
                       std::time_t modified, Diagnostics& diags);
std::vector<std::filesystem::path> write_epubs(const std::vector<EpubOutput>& outputs,
                                               const EpubOptions& options, Diagnostics& diags);

}  // namespace bb::epub
