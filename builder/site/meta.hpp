// What a site page says about itself in <head> (description, sharing cards, canonical and language
// alternates, icon) and the links it offers beside the text (its manuscript, the book's other formats).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "repo/repository.hpp"

namespace bb::site::meta {

// One page of the site, as the head tags need to know it.
struct Page {
  const book::EditionBook& edition;
  std::string path;         // relative to the site root: "en/ch04.html"
  std::string key;          // chapter key, or "" for the edition's home page
  std::string title;        // the page's <title>
  std::string description;  // plain text, already shortened (see `description`)
};

// The text of a chapter's first paragraph, whitespace collapsed, cut at a word (or, for scripts
// without spaces, a character) before `max_chars` code points with "…" appended.
std::string description(const doc::Node& chapter_root, std::size_t max_chars = 155);

// The <head> tags of a page: description, Open Graph and Twitter card, the icon, and — with
// `[book] site-url` — the canonical URL and absolute hreflang alternates (x-default: the source
// edition). Without site-url those three are omitted: search engines reject relative ones.
std::string head(const book::Book& book, const Page& page);

// The address of a site page ("en/ch04.html") under `[book] site-url`, percent-encoded.
std::string absolute_url(const book::Config& config, const std::string& page);
// The URL path the site is served under: the path of `[book] site-url` ("/book/" for
// https://example.org/book/), else "/". The 404 page, which the host serves at any depth, reaches its
// stylesheet and the editions through it.
std::string site_root_path(const book::Config& config);

// The site file of the icon ("assets/favicon.svg") and the file it is copied from: `[book] favicon`,
// else the one bookbuild ships in website/.
std::string favicon_site_path(const book::Config& config);
std::filesystem::path favicon_source(const book::Config& config);

// Warns (once per build, at book.toml) that canonical, hreflang and sitemap URLs are left out because
// `[book] site-url` is not set: a warning for a book with a home (a repository), else a note, which
// `notes = false` leaves out (`check` gives the warnings of the site build, not its notes).
void warn_without_site_url(const book::Config& config, Diagnostics& diags, bool notes = true);

// "View source" link to the chapter's manuscript in the repository at the build's commit, or "" when
// the book names no repository URL or the manuscript is outside the repository's work tree.
std::string source_link(const repo::Repository& repository, const book::Chapter& chapter,
                        const std::string& lang);

// A book file a reader can download, as it is placed in the site: "downloads/book-en.epub".
struct Download {
  std::string site_path;
  std::string format;  // "EPUB" or "PDF"
  std::filesystem::path source;
};

// The EPUB and PDF of an edition that exist in `out`, by the names `bookbuild epub` and `bookbuild pdf`
// give them (book::output_file: <out>/epub/<name>-<id>.epub, <out>/pdf/<name>-<id>.pdf).
std::vector<Download> downloads(const std::filesystem::path& out, const book::Config& config,
                                const book::Edition& edition);

// The links to those downloads, relative to `page` (empty when there are none).
std::string downloads_html(const std::vector<Download>& files, const std::string& page,
                           const std::string& lang);

}  // namespace bb::site::meta
