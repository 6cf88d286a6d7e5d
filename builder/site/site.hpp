// The website writer: one HTML page per chapter and edition, a home page per edition, a 404 page, a
// sitemap, the search index and the static assets. The site is rendered in memory, then written:
// an edition at a time through a staged folder (`bookbuild site`, SiteWriter), or only the files
// that changed (serve, which keeps the whole site in memory).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "figures/memo.hpp"
#include "filters/pipeline.hpp"

namespace bb::site {

struct SiteOptions {
  bool live_reload = false;            // add the live-reload script (serve mode)
  bool search = true;                  // build the search index (serve builds it after the pages)
  std::filesystem::path figure_cache;  // PDF figures rendered to PNG, shared with the EPUB
  std::filesystem::path out;           // the output folder, where EPUB and PDF downloads are looked for
  // Each edition's search index kept between runs (<out>/.cache/search; none when empty), keyed by
  // its sections and `tool`, this binary's version and commit (site/search_cache.hpp).
  std::filesystem::path search_cache;
  std::string tool;
};

// Every file of the site: generated content by relative path, and files copied from the book.
struct SiteFiles {
  std::map<std::string, std::string> generated;         // "en/ch04.html" → bytes
  std::map<std::string, std::filesystem::path> copied;  // "en/images/x.svg" → source file
  // A copied file's identity where the figure cache took it this run (figures::Prepared::file_id).
  std::map<std::string, figures::FileId> copied_ids;
  std::map<std::string, std::size_t> search_index_bytes;  // edition id → index size
  std::map<std::string, std::size_t> search_query_bytes;  // edition id → download for one query
  // Edition id → its list of chapters as every page shows it, none current (render_pages reuses it).
  std::map<std::string, std::string> chapter_lists;
};

// Renders the whole site. Problems (a missing image, say) go to `diags`.
SiteFiles render_site(const book::Book& book, const filters::Resolution& resolution,
                      const SiteOptions& options, Diagnostics& diags);

// Renders only the pages of the given chapters, as render_site renders them, with the figures they
// show (`site --serve`, after those chapters changed): (edition index, chapter index) pairs. The
// chapter lists of `last`, the site these pages belong to, are reused: every chapter's key and title
// must be the same as when `last` was rendered (else pass nullptr).
SiteFiles render_pages(const book::Book& book, const filters::Resolution& resolution,
                       const SiteOptions& options, Diagnostics& diags,
                       const std::vector<std::pair<std::size_t, std::size_t>>& chapters,
                       const SiteFiles* last = nullptr);

// Adds (or replaces) the search index of every edition in `files`. An edition whose searchable text is
// unchanged since the last call in this process, or since the run that stored it in
// `options.search_cache`, reuses its index.
void render_search(const book::Book& book, const SiteOptions& options, SiteFiles& files);

// Whether a site file belongs to a search index.
bool is_search_file(const std::string& rel);

// Writes a rendered site into `out` through a staged folder swapped in at the end.
void write_site(const SiteFiles& files, const std::filesystem::path& out);

struct SiteSummary {
  std::size_t pages = 0;                                  // HTML pages
  std::map<std::string, std::size_t> search_index_bytes;  // as in SiteFiles
  std::map<std::string, std::size_t> search_query_bytes;
  bool written = false;  // swapped in (no errors)
};

// render_site and write_site for a book loaded one edition at a time (book::book_outline, then
// load_edition): each edition's pages and search index are rendered while its trees are loaded and
// written at once into the staged folder of `out`, so that no more than one edition's pages is in
// memory. finish() adds the pages that span the editions (404, sitemap) and the copied files, and
// swaps the folder in unless `diags` holds errors. The files are those render_site gives.
class SiteWriter {
 public:
  SiteWriter(const book::Book& book, const filters::Resolution& resolution, const SiteOptions& options,
             Diagnostics& diags, const std::filesystem::path& out);
  ~SiteWriter();
  SiteWriter(const SiteWriter&) = delete;
  SiteWriter& operator=(const SiteWriter&) = delete;
  void add_edition(std::size_t edition);  // book.editions[edition] is loaded
  SiteSummary finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The page of a chapter relative to the site root ("en/ch04.html").
std::string chapter_page(const book::Edition& edition, const std::string& key);

// "../" once per folder level of `page`, to reach the site root from it.
std::string up_from(const std::string& page);

}  // namespace bb::site
