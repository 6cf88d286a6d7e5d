// The website writer: pages from templates/page.html, assets from website/, images beside pages.
#include "site/site.hpp"

#include <iostream>
#include <map>
#include <set>

#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "writers/escape.hpp"
#include "writers/html.hpp"
#include "writers/template.hpp"

namespace bb::site {

namespace fs = std::filesystem;
using writers::escape_xml;

namespace {

std::string page_name(const book::Chapter& c) {
  return c.key + ".html";
}

// "../" repeated once per folder level of the edition's site path, to reach the site root.
std::string root_from(const std::string& site_path) {
  std::string up;
  for (char ch : site_path)
    if (ch == '/') up += "../";
  return up;
}

bool is_external(const std::string& url) {
  return url.find("://") != std::string::npos || url.starts_with("mailto:") || url.starts_with("#") ||
         url.starts_with("//");
}

}  // namespace

void build_site(const book::Book& book, const SiteOptions& options, Diagnostics& diags) {
  output::StagedDir staged(options.out);
  const fs::path& out = staged.path();
  const std::string tmpl = writers::load_template("page.html");
  fs::copy_file(writers::data_dir() / "website" / "book.css", out / "assets" / "book.css",
                (fs::create_directories(out / "assets"), fs::copy_options::overwrite_existing));

  std::size_t pages = 0;
  for (const auto& eb : book.editions) {
    const auto& e = eb.edition;
    const fs::path folder = book.config.root / e.folder;
    const fs::path edition_out = out / e.site_path;
    const std::string root = root_from(e.site_path);

    // Chapter files by path, so that links between chapters land on the right page.
    std::map<fs::path, std::string> page_of;
    for (const auto& c : eb.chapters) page_of[fs::weakly_canonical(c.path)] = page_name(c);

    std::string languages;
    for (const auto& other : book.editions) {
      languages += "<a href=\"" + root + escape_xml(other.edition.site_path) + "index.html\" hreflang=\"" +
                   escape_xml(other.edition.lang) + "\">" + escape_xml(other.edition.name) + "</a>";
    }
    std::string sidebar = "<ol>";
    for (const auto& c : eb.chapters)
      sidebar += "<li><a href=\"" + escape_xml(page_name(c)) + "\">" + escape_xml(c.title) + "</a></li>";
    sidebar += "</ol>";

    auto page = [&](const std::string& title, const std::string& content, const std::string& pager) {
      return writers::fill_template(tmpl,
                                    {{"lang", escape_xml(e.lang)},
                                     {"title", escape_xml(title)},
                                     {"book_title", escape_xml(e.title)},
                                     {"root", root},
                                     {"home", "index.html"},
                                     {"languages", languages},
                                     {"sidebar", sidebar},
                                     {"content", content},
                                     {"pager", pager}},
                                    "page.html");
    };

    std::set<fs::path> copied;
    for (std::size_t i = 0; i < eb.chapters.size(); ++i) {
      const auto& c = eb.chapters[i];
      const fs::path dir = c.path.parent_path();
      writers::HtmlOptions ho;
      ho.math = [](const doc::Node& m) {
        return math::to_mathml(m.text, m.kind == doc::Kind::DisplayMath).mathml;
      };
      ho.xref = [&](const std::string& chapter, const std::string& target) {
        if (chapter == c.key) return "#" + target;
        return chapter + ".html" + (target == chapter ? std::string() : "#" + target);
      };
      ho.link = [&](const std::string& url) -> std::string {
        if (url.empty() || is_external(url)) return url;
        std::string file = url.substr(0, url.find('#'));
        std::string frag = url.find('#') == std::string::npos ? "" : url.substr(url.find('#'));
        fs::path target = fs::weakly_canonical(dir / file);
        if (auto it = page_of.find(target); it != page_of.end()) return it->second + frag;
        return url;
      };
      // Images live beside the page under the same relative path as beside the manuscript.
      doc::walk(c.root, [&](const doc::Node& n) {
        if (n.kind != doc::Kind::Image || is_external(n.url)) return;
        fs::path src = dir / n.url;
        fs::path rel = fs::relative(src, folder);
        if (!fs::is_regular_file(src)) {
          diags.error(n.loc, "image `" + n.url + "` does not exist");
          return;
        }
        if (rel.empty() || rel.native().starts_with("..")) return;
        if (!copied.insert(rel).second) return;
        fs::create_directories((edition_out / rel).parent_path());
        fs::copy_file(src, edition_out / rel, fs::copy_options::overwrite_existing);
      });
      std::string pager;
      if (i > 0)
        pager += "<a rel=\"prev\" href=\"" + page_name(eb.chapters[i - 1]) + "\">← " +
                 escape_xml(eb.chapters[i - 1].title) + "</a>";
      if (i + 1 < eb.chapters.size())
        pager += "<a rel=\"next\" href=\"" + page_name(eb.chapters[i + 1]) + "\">" +
                 escape_xml(eb.chapters[i + 1].title) + " →</a>";
      output::write_file(edition_out / page_name(c), page(c.title, writers::render_html(c.root, ho), pager));
      ++pages;
    }
    std::string home = "<h1>" + escape_xml(e.title) + "</h1>\n";
    if (!e.subtitle.empty()) home += "<p class=\"subtitle\">" + escape_xml(e.subtitle) + "</p>\n";
    home += sidebar;
    output::write_file(edition_out / "index.html", page(e.title, home, ""));
    ++pages;
  }
  if (diags.has_errors()) return;  // the staged folder is discarded; the previous site stays
  staged.commit();
  if (!options.quiet) std::cerr << "site: " << pages << " pages written to " << options.out.string() << '\n';
}

}  // namespace bb::site
