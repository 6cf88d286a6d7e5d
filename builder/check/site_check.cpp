// The site check reads every page with libxml2's HTML parser, collects the ids each page defines and
// the references it makes, then resolves every internal reference against the files on disk.
#include "check/site_check.hpp"
#include "check/xml.hpp"
#include "text/url.hpp"
#include "writers/escape.hpp"

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <vector>

namespace bb::check {

namespace fs = std::filesystem;

namespace {

struct Reference {
  std::string url;
  int line = 0;
};

struct Page {
  std::set<std::string> ids;
  std::vector<Reference> refs;
};

// The ids a page defines and the references it makes.
Page collect(const XmlDoc& doc) {
  Page page;
  for (const XmlElement& n : doc.elements) {
    std::string id = n.attr("id");
    if (!id.empty()) page.ids.insert(id);
    std::string_view name = n.name;
    if (name == "a" && !n.attr("name").empty()) page.ids.insert(n.attr("name"));
    const char* ref_attr = name == "a" || name == "link"         ? "href"
                           : (name == "img" || name == "script") ? "src"
                                                                 : nullptr;
    if (ref_attr) {
      std::string url = n.attr(ref_attr);
      if (!url.empty()) page.refs.push_back({url, n.line});
    }
  }
  return page;
}

// Links the check follows: files of the site (relative, site-absolute, fragments); everything with a
// scheme or a network path is left to the reader's browser.
bool followed(const std::string& url) {
  switch (text::classify_url(url)) {
    case text::UrlKind::Fragment:
    case text::UrlKind::Relative:
    case text::UrlKind::RootRelative: return true;
    default: return false;
  }
}

}  // namespace

SiteCheckStats check_site(const fs::path& site, Diagnostics& diags, const std::string& served_under) {
  SiteCheckStats stats;
  if (!fs::is_directory(site)) {
    diags.error({site, 0, 0}, "no site here: build it first with `bookbuild site`");
    return stats;
  }
  std::map<fs::path, Page> pages;
  for (const auto& f : fs::recursive_directory_iterator(site)) {
    if (!f.is_regular_file() || f.path().extension() != ".html") continue;
    std::ifstream in(f.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string html = ss.str();
    std::vector<XmlProblem> ignored;  // the HTML parser recovers from everything
    auto doc = parse_xml(html, f.path().string(), true, ignored);
    pages[fs::weakly_canonical(f.path())] = doc ? collect(*doc) : Page{};
  }
  stats.pages = pages.size();
  fs::path root = fs::weakly_canonical(site);
  for (const auto& [path, page] : pages) {
    // The 404 page is served at any depth, so its links are site-absolute.
    bool site_absolute_ok = path.filename() == "404.html";
    for (const auto& ref : page.refs) {
      if (!followed(ref.url)) continue;
      ++stats.links;
      std::string url = ref.url.substr(0, ref.url.find('?'));
      std::string file = writers::percent_decode(url.substr(0, url.find('#')));
      std::string frag =
          url.find('#') == std::string::npos ? "" : writers::percent_decode(url.substr(url.find('#') + 1));
      fs::path target;
      if (file.empty())
        target = path;
      else if (file.starts_with(served_under))
        target = fs::weakly_canonical(root / file.substr(served_under.size()));
      else if (file.starts_with("/"))
        target = fs::weakly_canonical(root / "..");  // outside the site's path: leaves the site
      else
        target = fs::weakly_canonical(path.parent_path() / file);
      if (file.starts_with("/") && !site_absolute_ok) {
        diags.error({path, ref.line, 0},
                    "site-absolute link `" + ref.url + "` breaks when the site is not at a domain root");
        ++stats.problems;
        continue;
      }
      if (fs::is_directory(target)) target /= "index.html";
      auto [a, b] = std::mismatch(root.begin(), root.end(), target.begin(), target.end());
      if (a != root.end()) {
        diags.error({path, ref.line, 0}, "link `" + ref.url + "` leaves the site");
        ++stats.problems;
        continue;
      }
      if (!fs::exists(target)) {
        diags.error({path, ref.line, 0}, "link `" + ref.url + "` leads to a missing file");
        ++stats.problems;
        continue;
      }
      if (!frag.empty()) {
        auto it = pages.find(target);
        if (it != pages.end() && !it->second.ids.count(frag)) {
          diags.error({path, ref.line, 0},
                      "link `" + ref.url + "`: no element with id `" + frag + "` on that page");
          ++stats.problems;
        }
      }
    }
  }
  return stats;
}

}  // namespace bb::check
