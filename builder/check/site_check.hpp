// `bookbuild check site`: every internal link, #fragment, image, stylesheet and script of the built
// site exists; each problem is reported with the page that refers to it.
#pragma once

#include <filesystem>

#include "diag/diagnostics.hpp"

namespace bb::check {

struct SiteCheckStats {
  std::size_t pages = 0;
  std::size_t links = 0;
  std::size_t problems = 0;
};

// `served_under` is the URL path the site is published under ("/" or, from `[book] site-url`, say
// "/book/"): the 404 page's site-absolute links start with it.
SiteCheckStats check_site(const std::filesystem::path& site, Diagnostics& diags,
                          const std::string& served_under = "/");

}  // namespace bb::check
