// The site's addresses of chapters and of the places in them.
#include "book/site_address.hpp"

namespace bb::book {

std::string site_page(const Edition& edition, const std::string& key) {
  return edition.site_path + key + ".html";
}

std::string site_address(const Config& config, const Edition& edition, const std::string& key,
                         const std::string& target) {
  if (config.site_url.empty()) return {};
  // The site's own links name a chapter by its page alone, a place in it by the page and its id.
  return config.site_url + site_page(edition, key) + (target.empty() || target == key ? "" : "#" + target);
}

}  // namespace bb::book
