// The website writer: one HTML page per chapter and edition, with the assets the pages need.
#pragma once

#include <filesystem>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"

namespace bb::site {

struct SiteOptions {
  std::filesystem::path out;  // the site folder (build/site); built aside, then swapped in
  bool quiet = false;
};

// Writes the site for every loaded edition. Problems found while writing (a missing image, say)
// go to `diags`; nothing is swapped in if there are errors.
void build_site(const book::Book& book, const SiteOptions& options, Diagnostics& diags);

}  // namespace bb::site
