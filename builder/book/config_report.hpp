// What `--verbose` says about a configuration: each value and where it came from (book.toml, the
// repository's files, its Git remote, the detected layout, or a default).
#pragma once

#include <string>
#include <vector>

#include "book/config.hpp"

namespace bb::book {

// One line per value: "title: 深入理解 … (README.md:1)", "edition zh-tw: book-zh-tw/ … (layout: …)".
std::vector<std::string> describe_config(const Config& cfg);

}  // namespace bb::book
