// Where a chapter and a place in it are on the book's site: one rule for the site, which writes the
// pages there, and for the outputs that link into it (a sample chapter's PDF, whose references to the
// chapters it leaves out lead to the site).
#pragma once

#include <string>

#include "book/config.hpp"

namespace bb::book {

// The chapter's page, relative to the site's root: "<site_path><key>.html" ("en/ch04.html").
std::string site_page(const Edition& edition, const std::string& key);

// The address of `target` (an id, or the chapter's key for the chapter itself) in chapter `key` on
// the published site (book.toml `site-url`): "https://book.example/en/ch04.html#fig-4-1"; "" when the
// book has no site-url.
std::string site_address(const Config& config, const Edition& edition, const std::string& key,
                         const std::string& target);

}  // namespace bb::book
