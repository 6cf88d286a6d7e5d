// The file names of a book's outputs (EPUB, PDF), shared by the writers that make them and by the site,
// which links them as downloads: one rule, so a link always names the file a build writes.
#pragma once

#include <string>
#include <string_view>

#include "book/config.hpp"

namespace bb::book {

// The stem every output file starts with: the repository's name, else the book folder's, as lower-case
// ASCII letters and digits with a `-` for each run of anything else; "book" when nothing is left.
std::string output_name(const Config& config);

// "<output_name>-<edition id><ext>": "ai-infra-book-en.epub". Edition ids are checked path components.
std::string output_file(const Config& config, const Edition& edition, std::string_view ext);

}  // namespace bb::book
