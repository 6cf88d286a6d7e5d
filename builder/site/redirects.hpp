// Redirect pages for the addresses a book had before: the real book's MkDocs pages, and the
// `[site] redirects` of book.toml. Static files (GitHub Pages has no server-side redirects): the
// script keeps the address's #fragment, the meta refresh works without scripts.
#pragma once

#include <map>
#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"

namespace bb::site {

// Where MkDocs served chapter `chapter` of edition `e` in the real book's site (scripts/build_site.py
// of bojieli/ai-infra-book): the source edition at the root under its folder
// ("manuscripts/04-加速器架构.html"), the translations under their id ("en/chapter04.html",
// "zh-tw/introduction.html"). Empty for an edition that site did not have.
std::string mkdocs_page(const book::Edition& e, const book::ChapterEntry& chapter);
// The same for the edition's home page ("index.html", "en/index.html").
std::string mkdocs_home(const book::Edition& e);

// Every old address → the page it now is (site paths). A configured redirect whose source is one of
// the site's own pages (`generated`) is an error at its line in book.toml; a MkDocs address that is
// one is left alone.
std::map<std::string, std::string> old_addresses(const book::Book& book,
                                                 const std::map<std::string, std::string>& generated,
                                                 Diagnostics& diags);

// Adds a redirect page to `generated` for every old address.
void add_redirect_pages(const book::Book& book, std::map<std::string, std::string>& generated,
                        Diagnostics& diags);

}  // namespace bb::site
