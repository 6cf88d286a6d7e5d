// The website writer. Pages come from templates/page.html; the chrome (sidebar, table of contents,
// language switcher, pager) is built here from the resolved trees; content from the HTML writer.
#include "site/site.hpp"

#include <unistd.h>

#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <sstream>

#include "book/site_address.hpp"
#include "diag/parallel.hpp"
#include "diag/progress.hpp"
#include "figures/figures.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "search/search_cache.hpp"
#include "search/search_index.hpp"
#include "site/meta.hpp"
#include "site/redirects.hpp"
#include "site/site_output.hpp"
#include "writers/escape.hpp"
#include "writers/html.hpp"
#include "writers/template.hpp"

namespace bb::site {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;
using writers::escape_xml;

std::string chapter_page(const book::Edition& edition, const std::string& key) {
  return book::site_page(edition, key);  // the rule the PDF's links to the site follow too
}

std::string up_from(const std::string& page) {
  std::string up;
  for (char c : page)
    if (c == '/') up += "../";
  return up;
}

namespace {

std::string heading_html(const Node& h) {
  const std::string* label = h.attr("label");
  std::string prefix = label ? *label : h.number();
  std::string out;
  if (!prefix.empty()) out = "<span class=\"number\">" + escape_xml(prefix) + "</span> ";
  return out + escape_xml(doc::plain_text(h.children));
}

class Renderer {
 public:
  Renderer(const book::Book& b, const filters::Resolution& r, const SiteOptions& o, Diagnostics& d)
      : book_(b), repository_(r.repository), opt_(o), diags_(d) {
    tmpl_ = writers::load_template("page.html");
    home_tmpl_ = writers::load_template("home.html");
  }

  SiteFiles run() {
    begin();
    std::size_t pages = 0;
    for (const auto& eb : book_.editions) pages += eb.chapters.size();
    ProgressCount shown("site", "pages", pages);
    pages_shown_ = &shown;
    // Editions are independent once resolved: each renders its pages and its search index in a
    // thread of its own.
    std::vector<std::future<void>> work;
    for (const auto& eb : book_.editions)
      work.push_back(std::async(std::launch::async, [this, &eb] { render_edition(eb); }));
    for (auto& f : work) f.get();
    pages_shown_ = nullptr;
    end();
    return std::move(files_);
  }

  // What does not depend on the editions' trees: assets, the icon, the downloads found in the output,
  // the site-url warning (for a site to publish, not for the dev server).
  void begin() {
    for (const char* asset : {"book.css", "site.js", "search.js", "search.css", "live-reload.js"}) {
      fs::path src = writers::data_dir() / "website" / asset;
      inputs::note_file(src);
      if (fs::exists(src)) files_.copied[std::string("assets/") + asset] = src;
    }
    files_.copied[meta::favicon_site_path(book_.config)] = meta::favicon_source(book_.config);
    find_downloads();
    // The dev server's preview is read at 127.0.0.1: absolute URLs would not lead there anyway.
    if (!opt_.live_reload) meta::warn_without_site_url(book_.config, diags_);
  }

  // The pages, home page and search index of an edition whose chapters are loaded.
  void render_edition(const book::EditionBook& eb) {
    std::vector<search::SearchSection> sections;
    edition(eb, sections);
    if (!opt_.search) return;
    SiteFiles part;
    search_index(eb, sections, opt_, part);
    std::lock_guard lock(files_mutex_);
    files_.generated.merge(part.generated);
    files_.search_index_bytes.merge(part.search_index_bytes);
    files_.search_query_bytes.merge(part.search_query_bytes);
  }

  // The pages that span the editions: 404 and the sitemap (chapter lists only).
  void end() {
    not_found_page();
    sitemap();
    add_redirect_pages(book_, files_.generated, diags_);  // after every page: none is overwritten
  }

  SiteFiles& files() { return files_; }
  void show_pages(ProgressCount* shown) { pages_shown_ = shown; }

  // Only the pages of the given chapters, with the files their figures need.
  SiteFiles pages(const std::vector<std::pair<std::size_t, std::size_t>>& chapters,
                  const std::map<std::string, std::string>& lists) {
    find_downloads();
    std::vector<search::SearchSection> unused;
    for (const auto& [e, i] : chapters) {
      const book::EditionBook& eb = book_.editions.at(e);
      auto it = lists.find(eb.edition.id);
      chapter_page_for(eb, i, unused, it != lists.end() ? it->second : chapter_list(eb));
    }
    return std::move(files_);
  }

 private:
  void find_downloads() {
    for (const auto& eb : book_.editions)
      for (auto& d : downloads_[eb.edition.id] = meta::downloads(opt_.out, book_.config, eb.edition))
        files_.copied[d.site_path] = d.source;
  }

  void edition(const book::EditionBook& eb, std::vector<search::SearchSection>& search) {
    const std::string list = chapter_list(eb);
    // The chapters' pages on every core; their sections joined in book order.
    std::vector<std::vector<search::SearchSection>> parts(eb.chapters.size());
    parallel_for(eb.chapters.size(), [&](std::size_t i) {
      chapter_page_for(eb, i, parts[i], list);
      if (pages_shown_) pages_shown_->step();
    });
    for (auto& p : parts)
      search.insert(search.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
    home_page(eb, list);  // takes the lock itself: publishing its images takes it too
    std::lock_guard lock(files_mutex_);
    files_.chapter_lists[eb.edition.id] = list;
  }

  std::string languages(const std::string& page, const std::string& key, const book::Edition& current) {
    std::string out;
    std::string up = up_from(page);
    for (const auto& other : book_.editions) {
      bool has = key.empty() || other.chapter(key);
      std::string target =
          has && !key.empty() ? chapter_page(other.edition, key) : other.edition.site_path + "index.html";
      std::string href = up + target;
      out += "<a href=\"" + escape_xml(href) + "\" data-page=\"" + escape_xml(href) + "\" hreflang=\"" +
             escape_xml(other.edition.lang) + "\" lang=\"" + escape_xml(other.edition.lang) + "\"" +
             (other.edition.id == current.id ? " aria-current=\"true\"" : "") + ">" +
             escape_xml(other.edition.name) + "</a>";
    }
    return out;
  }

  // Every page lists the edition's chapters. The list is made once per edition (it was made per
  // page, n entries for each of n pages) and kept in SiteFiles::chapter_lists, where render_pages
  // finds it: under --serve an edit does not read every chapter's title again, which on a large
  // book meant memory scattered over the whole heap.
  static std::string chapter_list(const book::EditionBook& eb) {
    std::size_t size = 16;
    for (const auto& c : eb.chapters) size += 32 + c.key.size() + c.title.size();
    std::string out;
    out.reserve(size);
    out += "<ol>";
    for (const auto& c : eb.chapters) {
      out += "<li><a href=\"";
      text::append_escaped_xml(out, c.key);
      out += ".html\">";
      text::append_escaped_xml(out, c.title);
      out += "</a></li>";
    }
    out += "</ol>";
    return out;
  }

  // The list as chapter `c`'s page shows it: its entry marked current, with its sections.
  static std::string sidebar(const std::string& list, const book::Chapter& c) {
    std::string entry = "<li><a href=\"";
    text::append_escaped_xml(entry, c.key);
    entry += ".html\"";
    const std::size_t at = list.find(entry + ">");
    if (at == std::string::npos) return list;  // not in the list (cannot happen for a chapter)
    const std::size_t tail = list.find("</a></li>", at + entry.size()) + 4;
    std::string sub;
    for (const auto& b : c.root.children) {
      if (b.kind != Kind::Heading || b.level() != 2 || b.id().empty()) continue;
      sub += "<li><a href=\"#";
      text::append_escaped_xml(sub, b.id());
      sub += "\">";
      sub += heading_html(b);
      sub += "</a></li>";
    }
    std::string out;
    out.reserve(list.size() + sub.size() + 32);
    out.append(list, 0, at + entry.size());
    out += " aria-current=\"page\"";
    out.append(list, at + entry.size(), tail - at - entry.size());
    if (!sub.empty()) out += "<ol>" + sub + "</ol>";
    out.append(list, tail);
    return out;
  }

  std::string toc(const book::Chapter& c, const lang::Language& w) {
    std::string out;
    bool open3 = false;
    for (const auto& b : c.root.children) {
      if (b.kind != Kind::Heading || b.id().empty() || (b.level() != 2 && b.level() != 3)) continue;
      if (b.level() == 3 && !open3) {
        if (!out.empty() && out.ends_with("</li>")) out.resize(out.size() - 5);
        out += "<ol>";
        open3 = true;
      } else if (b.level() == 2 && open3) {
        out += "</ol></li>";
        open3 = false;
      }
      out += "<li><a href=\"#" + escape_xml(b.id()) + "\">" + heading_html(b) + "</a></li>";
    }
    if (open3) out += "</ol></li>";
    if (out.empty()) return "";
    return "<h2>" + escape_xml(w.word("site.on-this-page")) + "</h2><ol>" + out + "</ol>";
  }

  void chapter_page_for(const book::EditionBook& eb, std::size_t i,
                        std::vector<search::SearchSection>& search, const std::string& list) {
    const auto& e = eb.edition;
    const auto& c = eb.chapters[i];
    const std::string page = chapter_page(e, c.key);
    const lang::Language& w = lang::language(e.lang);

    std::string pager;
    if (i > 0) {
      const auto& p = eb.chapters[i - 1];
      pager += "<a class=\"prev\" rel=\"prev\" href=\"" + escape_xml(p.key) + ".html\">← " +
               escape_xml(p.title) + "</a>";
    }
    if (i + 1 < eb.chapters.size()) {
      const auto& n = eb.chapters[i + 1];
      pager += "<a class=\"next\" rel=\"next\" href=\"" + escape_xml(n.key) + ".html\">" +
               escape_xml(n.title) + " →</a>";
    }
    std::string html =
        fill(eb, page, c.key, c.title + " · " + e.title, content_html(e, c, page), sidebar(list, c),
             toc(c, w), pager, meta::description(c.root), meta::source_link(repository_, c, e.lang));
    {
      std::lock_guard lock(files_mutex_);
      files_.generated[page] = std::move(html);
    }

    if (opt_.search) append_sections(c, search);
  }

  // The images of a page's tree, published (copied into the site) under the path they have beside
  // the manuscripts (an image elsewhere in the book under `files/`); a PDF figure becomes the PNG the
  // figure cache rendered from it. Returns each asset's src relative to the page (`up` leads from the
  // page's folder to the site's root).
  std::map<std::string, std::string> publish_images(const book::Edition& e, const Node& root,
                                                    const std::string& up) {
    std::map<std::string, std::string> image_src;  // asset → src relative to the page
    std::vector<figures::Request> requests;
    std::vector<const std::string*> assets;
    doc::walk(root, [&](const Node& n) {
      const std::string* asset = n.kind == Kind::Image ? n.attr("asset") : nullptr;
      if (!asset || image_src.count(*asset)) return;
      image_src[*asset];
      requests.push_back({book_.config.root / *asset, n.loc, n.attr("chart-svg")});
      assets.push_back(asset);
    });
    figures::FigureCache cache(
        opt_.figure_cache.empty() ? fs::temp_directory_path() / "bookbuild-figures" : opt_.figure_cache,
        book_.config.root);
    auto prepared = cache.prepare_all(requests, diags_);
    for (std::size_t k = 0; k < assets.size(); ++k) {
      if (!prepared[k]) continue;
      fs::path rel = fs::path(*assets[k]).lexically_relative(e.folder);
      fs::path published =
          rel.empty() || *rel.begin() == ".." ? "files" / fs::path(*assets[k]) : fs::path(e.site_path) / rel;
      // A chart is drawn in the edition's language: one shared spec gives each edition its own file.
      if (requests[k].generated && (rel.empty() || *rel.begin() == ".."))
        published = fs::path(e.site_path) / "charts" / fs::path(*assets[k]).filename();
      published.replace_extension(prepared[k]->extension);
      {
        std::lock_guard lock(files_mutex_);
        files_.copied[published.generic_string()] = prepared[k]->file;
        if (prepared[k]->file_id) files_.copied_ids[published.generic_string()] = *prepared[k]->file_id;
      }
      std::string href = published.generic_string();
      image_src[*assets[k]] = href.starts_with(e.site_path) ? href.substr(e.site_path.size()) : up + href;
    }
    return image_src;
  }

  // The page's parts are taken by value and moved into the slots: a braced list of slots would copy
  // each twice (into the list, then into the map), and a chapter's content is the page's bulk.
  std::string fill(const book::EditionBook& eb, const std::string& page, const std::string& key,
                   const std::string& title, std::string content, std::string side, std::string toc_html,
                   std::string pager, const std::string& description, const std::string& source_link) {
    const auto& e = eb.edition;
    const lang::Language& w = lang::language(e.lang);
    const std::string up = up_from(page);
    std::map<std::string, std::string> slots{
        {"lang", escape_xml(e.lang)},
        {"title", escape_xml(title)},
        {"book_title", escape_xml(e.title)},
        {"root", up},
        {"home", "index.html"},
        {"chapter_key", escape_xml(key)},
        {"search_index", "search/"},
        {"search_label", escape_xml(w.word("site.search"))},
        {"skip_label", escape_xml(w.word("site.skip"))},
        {"menu_label", escape_xml(w.word("site.menu"))},
        {"languages_label", escape_xml(w.word("site.languages"))},
        {"theme_label", escape_xml(w.word("site.theme"))},
        {"contents_label", escape_xml(w.word("site.contents"))},
        {"pager_label", escape_xml(w.word("site.pager"))},
        {"toc_label", escape_xml(w.word("site.toc"))},
        {"copy_label", escape_xml(w.word("site.copy"))},
        {"copied_label", escape_xml(w.word("site.copied"))},
        {"head", meta::head(book_, {eb, page, key, title, description})},
        {"page_links", meta::downloads_html(downloads_.at(e.id), page, e.lang) + source_link},
        {"languages", languages(page, key, e)},
        {"live_reload", opt_.live_reload ? "<script src=\"" + up + "assets/live-reload.js\"></script>" : ""}};
    slots.emplace("sidebar", std::move(side));
    slots.emplace("content", std::move(content));
    slots.emplace("toc", std::move(toc_html));
    slots.emplace("pager", std::move(pager));
    return writers::fill_template(tmpl_, slots, "page.html");
  }

  // The tree of a chapter, or of an edition's Markdown home page (EditionBook::home, resolved like a
  // chapter), as the HTML content of its page `page`: references to its own ids stay on the page,
  // others lead to their chapter's page, and its images are published beside it.
  std::string content_html(const book::Edition& e, const book::Chapter& c, const std::string& page) {
    writers::HtmlOptions ho;
    ho.block_markers = opt_.live_reload;
    ho.alias_ids = true;
    ho.math = [](const Node& m) {
      return math::to_mathml_cached(m.text, m.kind == Kind::DisplayMath).mathml;
    };
    ho.xref = [&](const std::string& chapter, const std::string& target) {
      if (chapter == c.key) return "#" + target;
      return chapter + ".html" + (target == chapter ? std::string() : "#" + target);
    };
    const std::map<std::string, std::string> image_src = publish_images(e, c.root, up_from(page));
    ho.asset = [&](const std::string& asset) {
      auto it = image_src.find(asset);
      return it == image_src.end() ? asset : it->second;
    };
    return writers::render_html(c.root, ho);
  }

  void home_page(const book::EditionBook& eb, const std::string& list) {
    const auto& e = eb.edition;
    const lang::Language& w = lang::language(e.lang);
    std::string authors;
    for (const auto& a : book_.config.authors) authors += (authors.empty() ? "" : ", ") + escape_xml(a);
    std::string contents = "<ol>";
    for (const auto& c : eb.chapters)
      contents += "<li><a href=\"" + escape_xml(c.key) + ".html\">" + escape_xml(c.title) + "</a></li>";
    contents += "</ol>";
    std::string body = writers::fill_template(home_tmpl_,
                                              {{"title", escape_xml(e.title)},
                                               {"subtitle", escape_xml(e.subtitle)},
                                               {"authors", authors},
                                               {"contents_label", escape_xml(w.word("site.contents"))},
                                               {"contents", contents}},
                                              "home.html");
    std::string page = e.site_path + "index.html";
    if (eb.home) body = content_html(e, *eb.home, page);
    std::string pager;
    if (!eb.chapters.empty())
      pager = "<a class=\"next\" rel=\"next\" href=\"" + escape_xml(eb.chapters.front().key) + ".html\">" +
              escape_xml(eb.chapters.front().title) + " →</a>";
    std::string html = fill(eb, page, "", e.title, std::move(body), list, "", std::move(pager),
                            e.subtitle.empty() ? e.title : e.subtitle, "");
    std::lock_guard lock(files_mutex_);
    files_.generated[page] = std::move(html);
  }

 public:
  // The index of an edition, remembered (in the process, and in `options.search_cache` between runs)
  // and reused while everything it is built from is unchanged.
  static void search_index(const book::EditionBook& eb, const std::vector<search::SearchSection>& sections,
                           const SiteOptions& options, SiteFiles& into) {
    static std::mutex mutex;
    static std::map<std::string, std::pair<std::string, search::BuiltIndex>>
        cache;  // edition id → key, index
    const std::string& id = eb.edition.id;
    std::string key = search::search_index_key(sections, eb.edition.lang, options.tool);
    std::unique_lock lock(mutex);
    auto it = cache.find(id);
    if (it == cache.end() || it->second.first != key) {
      lock.unlock();  // editions are indexed in parallel
      std::optional<search::BuiltIndex> built;
      if (!options.search_cache.empty()) built = search::load_search_index(options.search_cache, id, key);
      if (!built) {
        built.emplace();
        built->stats = search::build_search_index(sections, eb.edition.lang, built->files);
        if (!options.search_cache.empty()) search::store_search_index(options.search_cache, id, key, *built);
      }
      lock.lock();
      it = cache.insert_or_assign(id, std::make_pair(std::move(key), std::move(*built))).first;
    }
    const search::BuiltIndex& index = it->second.second;
    for (const auto& [name, content] : index.files)
      into.generated[eb.edition.site_path + "search/" + name] = content;
    into.search_index_bytes[id] = index.stats.index_bytes;
    into.search_query_bytes[id] = index.stats.largest_query_bytes;
  }

  // The sections of every chapter of an edition, as the search indexes them.
  static std::vector<search::SearchSection> edition_sections(const book::EditionBook& eb) {
    std::vector<search::SearchSection> out;
    for (const auto& c : eb.chapters) append_sections(c, out);
    return out;
  }

  static void append_sections(const book::Chapter& c, std::vector<search::SearchSection>& search) {
    auto sections = search::search_sections(c.root, c.key + ".html", c.title);
    search.insert(search.end(), std::make_move_iterator(sections.begin()),
                  std::make_move_iterator(sections.end()));
  }

 private:
  void not_found_page() {
    const std::string root = escape_xml(meta::site_root_path(book_.config));
    std::string messages;
    for (const auto& eb : book_.editions) {
      const lang::Language& w = lang::language(eb.edition.lang);
      messages += "<p lang=\"" + escape_xml(eb.edition.lang) + "\">" + escape_xml(w.word("site.not-found")) +
                  " <a href=\"" + root + escape_xml(eb.edition.site_path) + "index.html\">" +
                  escape_xml(w.word("site.home")) + " · " + escape_xml(eb.edition.title) + "</a></p>\n";
    }
    const auto& src = book_.config.source();
    files_.generated["404.html"] =
        writers::fill_template(writers::load_template("404.html"),
                               {{"lang", escape_xml(src.lang)},
                                {"book_title", escape_xml(src.title)},
                                {"messages", messages},
                                {"root", root},
                                {"favicon", root + meta::favicon_site_path(book_.config)}},
                               "404.html");
  }

  void sitemap() {
    if (book_.config.site_url.empty()) return;  // a sitemap lists absolute URLs only
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
        "xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
    auto url = [&](const std::string& key) {
      for (const auto& eb : book_.editions) {
        if (!key.empty() && !eb.chapter(key)) continue;
        std::string page = key.empty() ? eb.edition.site_path + "index.html" : chapter_page(eb.edition, key);
        out += "<url><loc>" + escape_xml(meta::absolute_url(book_.config, page)) + "</loc>";
        for (const auto& other : book_.editions) {
          if (!key.empty() && !other.chapter(key)) continue;
          std::string alt =
              key.empty() ? other.edition.site_path + "index.html" : chapter_page(other.edition, key);
          out += "<xhtml:link rel=\"alternate\" hreflang=\"" + escape_xml(other.edition.lang) + "\" href=\"" +
                 escape_xml(meta::absolute_url(book_.config, alt)) + "\"/>";
        }
        out += "</url>\n";
      }
    };
    url("");
    std::set<std::string> keys;
    for (const auto& eb : book_.editions)
      for (const auto& c : eb.chapters)
        if (keys.insert(c.key).second) url(c.key);
    files_.generated["sitemap.xml"] = out + "</urlset>\n";
  }

  const book::Book& book_;
  const repo::Repository& repository_;
  const SiteOptions& opt_;
  Diagnostics& diags_;
  std::string tmpl_, home_tmpl_;
  SiteFiles files_;
  std::map<std::string, std::vector<meta::Download>> downloads_;  // by edition id
  std::mutex files_mutex_;                // pages are written while other editions are being indexed
  ProgressCount* pages_shown_ = nullptr;  // the status line's page count while editions render
};

}  // namespace

SiteFiles render_site(const book::Book& book, const filters::Resolution& resolution,
                      const SiteOptions& options, Diagnostics& diags) {
  return Renderer(book, resolution, options, diags).run();
}

SiteFiles render_pages(const book::Book& book, const filters::Resolution& resolution,
                       const SiteOptions& options, Diagnostics& diags,
                       const std::vector<std::pair<std::size_t, std::size_t>>& chapters,
                       const SiteFiles* last) {
  SiteOptions pages_only = options;
  pages_only.search = false;
  static const std::map<std::string, std::string> none;
  return Renderer(book, resolution, pages_only, diags).pages(chapters, last ? last->chapter_lists : none);
}

void render_search(const book::Book& book, const SiteOptions& options, SiteFiles& files) {
  std::erase_if(files.generated, [](const auto& kv) { return is_search_file(kv.first); });
  for (const auto& eb : book.editions)
    Renderer::search_index(eb, Renderer::edition_sections(eb), options, files);
}

bool is_search_file(const std::string& rel) {
  return rel.starts_with("search/") || rel.find("/search/") != std::string::npos;
}

struct SiteWriter::State {
  State(const book::Book& book, const filters::Resolution& resolution, const SiteOptions& options,
        Diagnostics& diags, const fs::path& out)
      : options(options),
        renderer(book, resolution, this->options, diags),
        diags(diags),
        out(out),
        update(out),
        shown("site", "pages",
              [&] {
                std::size_t pages = 0;
                for (const auto& eb : book.editions) pages += eb.chapters.size();
                return pages;
              }()),
        book(book) {}
  SiteOptions options;  // the renderer's, kept here
  Renderer renderer;
  Diagnostics& diags;
  fs::path out;
  SiteUpdate update;
  ProgressCount shown;
  const book::Book& book;
  std::size_t pages = 0;
};

SiteWriter::SiteWriter(const book::Book& book, const filters::Resolution& resolution,
                       const SiteOptions& options, Diagnostics& diags, const fs::path& out)
    : state_(std::make_unique<State>(book, resolution, options, diags, out)) {
  state_->renderer.begin();
  state_->renderer.show_pages(&state_->shown);
}

SiteWriter::~SiteWriter() = default;

void SiteWriter::add_edition(std::size_t edition) {
  auto& files = state_->renderer.files();
  state_->renderer.render_edition(state_->book.editions.at(edition));
  state_->pages += count_pages(files.generated);
  state_->update.add_generated(files.generated);
  files.generated.clear();
}

SiteSummary SiteWriter::finish() {
  state_->renderer.show_pages(nullptr);
  state_->renderer.end();
  auto& files = state_->renderer.files();
  SiteSummary summary{state_->pages + count_pages(files.generated), files.search_index_bytes,
                      files.search_query_bytes};
  if (state_->diags.has_errors()) return summary;  // the staged folder is removed, the site kept
  state_->update.add_generated(files.generated);
  state_->update.add_copied(files.copied, files.copied_ids);
  state_->update.commit();
  summary.written = true;
  return summary;
}

}  // namespace bb::site
