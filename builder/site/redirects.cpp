// Redirect pages from old addresses (see redirects.hpp), filled into templates/redirect.html.
#include "site/redirects.hpp"

#include "site/site.hpp"
#include "text/escape.hpp"
#include "writers/escape.hpp"
#include "writers/template.hpp"

namespace bb::site {

namespace {

// The editions the real book's MkDocs build had, and where each was published.
const char* mkdocs_prefix(const book::Edition& e) {
  if (e.id == "zh") return "";
  if (e.id == "en") return "en/";
  if (e.id == "zh-tw") return "zh-tw/";
  return nullptr;
}

// `to` relative to the folder of `from` (both site paths).
std::string relative_href(const std::string& from, const std::string& to) {
  std::size_t common = 0;  // the length of the shared folders, each ending in '/'
  for (std::size_t i = 0; i < from.size() && i < to.size() && from[i] == to[i]; ++i)
    if (from[i] == '/') common = i + 1;
  return up_from(from.substr(common)) + to.substr(common);
}

std::string page_of(const book::Edition& e, const std::string& chapter) {
  return chapter.empty() ? e.site_path + "index.html" : chapter_page(e, chapter);
}

}  // namespace

std::string mkdocs_page(const book::Edition& e, const book::ChapterEntry& chapter) {
  const char* prefix = mkdocs_prefix(e);
  if (!prefix) return {};
  // The source edition's pages kept the repository's folder (its MkDocs docs folder was the root).
  std::filesystem::path file = e.id == "zh" ? e.folder / chapter.file : chapter.file;
  return prefix + file.replace_extension(".html").generic_string();
}

std::string mkdocs_home(const book::Edition& e) {
  const char* prefix = mkdocs_prefix(e);
  return prefix ? std::string(prefix) + "index.html" : std::string();
}

std::map<std::string, std::string> old_addresses(const book::Book& book,
                                                 const std::map<std::string, std::string>& generated,
                                                 Diagnostics& diags) {
  std::map<std::string, std::string> out;
  for (const auto& eb : book.editions) {
    const auto& e = eb.edition;
    if (!e.mkdocs_ids) continue;  // the real layout: it was published by MkDocs
    auto keep = [&](const std::string& old, const std::string& now) {
      if (!old.empty() && old != now && !generated.count(old)) out.try_emplace(old, now);
    };
    keep(mkdocs_home(e), page_of(e, ""));
    for (const auto& c : e.chapters) keep(mkdocs_page(e, c), page_of(e, c.key));
  }
  for (const auto& r : book.config.redirects) {
    const book::Edition* e = book.config.edition(r.edition);
    if (!e || !book.edition(r.edition)) continue;  // an edition not built in this run
    if (generated.count(r.from)) {
      diags.error(r.loc, "redirect source `" + r.from + "` is a page of the site itself");
      continue;
    }
    out[r.from] = page_of(*e, r.chapter);
  }
  return out;
}

void add_redirect_pages(const book::Book& book, std::map<std::string, std::string>& generated,
                        Diagnostics& diags) {
  const std::string tmpl = writers::load_template("redirect.html");
  for (const auto& [old, now] : old_addresses(book, generated, diags)) {
    const std::string href = relative_href(old, now);
    std::string js = text::json_quote(href);
    for (std::size_t at = js.find('<'); at != std::string::npos; at = js.find('<', at))
      js.replace(at, 1, "\\u003c");  // never `</script>` inside the script
    generated[old] = writers::fill_template(tmpl,
                                            {{"lang", writers::escape_xml(book.config.source().lang)},
                                             {"title", writers::escape_xml(book.config.source().title)},
                                             {"target", writers::escape_xml(href)},
                                             {"target_js", js}},
                                            "redirect.html");
  }
}

}  // namespace bb::site
