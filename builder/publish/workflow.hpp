// The book workflow (.github/workflows/book.yml) of a book: templates/workflow/book.yml with its
// `@NAME@` slots filled from the book's editions, their download names and [publish] (docs/publishing.md).
#pragma once

#include <string>

#include "book/config.hpp"
#include "publish/publish_config.hpp"

namespace bb::publish {

// The workflow for `cfg` and `settings` from `tmpl` (the template's text; `tmpl_name` names it in
// errors; `version` is the bookbuild writing it). A slot alone on its line takes that line's indentation for
// every line of its value. A slot the template has and this code does not fill, or the reverse, is a
// FatalError: they cannot drift.
std::string book_workflow(const book::Config& cfg, const Settings& settings, const std::string& tmpl,
                          const std::string& tmpl_name, const std::string& version);

// The files of each edition that ship, as the release job finds them in the build's artifact
// ("pdf/AI-Infra-Book.pdf", "epub/AI-Infra-Book.epub", then "build.json" when it ships).
std::vector<std::string> release_assets(const book::Config& cfg, const Settings& settings);

}  // namespace bb::publish
