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

// The edition's `download-name` plus <ext> ("AI-Infra-Book-EN.pdf") when book.toml gives one; else
// "<output_name>-<edition id><ext>": "ai-infra-book-en.epub". Edition ids are checked path components.
std::string output_file(const Config& config, const Edition& edition, std::string_view ext);

// Whether `name` may be a download-name: a plain file name of ASCII letters, digits, `-`, `_` and `.`,
// not starting with `.` (the name of a file under <out>/pdf, <out>/epub and the site's downloads/).
bool is_download_name(std::string_view name);

// The names the real book's releases use (AI-Infra-Book.pdf for its Simplified Chinese original "zh",
// AI-Infra-Book-EN.pdf, AI-Infra-Book-ZH-TW.pdf, …): given to the editions of its layout found without
// a book.toml, so that the links its readers keep still name the files.
std::string real_book_download_name(const Edition& edition);

}  // namespace bb::book
