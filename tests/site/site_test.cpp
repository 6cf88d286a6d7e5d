// The site of the two-edition fixture book: what a reader would look for on the pages.
#include "site/site.hpp"
#include "server/live_patch.hpp"

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <optional>

#include "book/book.hpp"
#include "book/config.hpp"
#include "book/output_names.hpp"
#include "check/site_check.hpp"
#include "filters/pipeline.hpp"
#include "site/meta.hpp"
#include "test_support.hpp"

namespace bb::site {
namespace {

namespace fs = std::filesystem;

struct Built {
  book::Book book;
  filters::Resolution resolution;
  SiteFiles files;
  Diagnostics diags;
};

std::unique_ptr<Built> build(const fs::path& root) {
  auto b = std::make_unique<Built>();
  auto cfg = book::load_config(root, b->diags);
  EXPECT_TRUE(cfg);
  b->book = book::load_book(std::move(*cfg), b->diags);
  b->resolution = filters::resolve(b->book, b->diags);
  SiteOptions o;
  o.figure_cache = fs::temp_directory_path() / "bb-site-test-figures";
  b->files = render_site(b->book, b->resolution, o, b->diags);
  return b;
}

const std::string& page(const Built& b, const std::string& rel) {
  static const std::string none;
  auto it = b.files.generated.find(rel);
  EXPECT_NE(it, b.files.generated.end()) << rel;
  return it == b.files.generated.end() ? none : it->second;
}

TEST(Site, EveryEditionHasHomeChaptersAnd404AndSitemap) {
  auto b = build(test::fixtures() / "books" / "mini");
  EXPECT_FALSE(b->diags.has_errors());
  for (const char* rel : {"index.html", "preface.html", "ch01.html", "en/index.html", "en/preface.html",
                          "en/ch01.html", "404.html", "sitemap.xml"})
    EXPECT_TRUE(b->files.generated.count(rel)) << rel;
  EXPECT_TRUE(b->files.copied.count("img/bw.svg"));
  EXPECT_TRUE(b->files.copied.count("en/img/bw.svg"));
  EXPECT_TRUE(b->files.copied.count("assets/book.css"));
}

// Every file under `dir`, by relative path, with its bytes.
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.is_regular_file()) out[fs::relative(f.path(), dir).generic_string()] = test::read_file(f.path());
  return out;
}

// `bookbuild site` reads, resolves and writes one edition at a time (SiteWriter): the site must be the
// one rendered from the whole book, while no more than one edition's trees is loaded at any time.
TEST(Site, WrittenOneEditionAtATimeIsTheSiteOfTheWholeBook) {
  const fs::path root = test::fixtures() / "books" / "mini";
  auto whole = build(root);
  ASSERT_FALSE(whole->diags.has_errors());
  test::TempDir out;
  write_site(whole->files, out.path / "whole");

  Diagnostics diags;
  auto cfg = book::load_config(root, diags);
  ASSERT_TRUE(cfg);
  book::Book book = book::book_outline(std::move(*cfg), diags);
  ASSERT_EQ(book.editions.size(), whole->book.editions.size());
  filters::Resolution r = filters::begin_resolution(book);
  SiteOptions o;
  o.figure_cache = fs::temp_directory_path() / "bb-site-test-figures";
  std::optional<SiteWriter> writer;
  writer.emplace(book, r, o, diags, out.path / "by-edition");
  for (std::size_t e = 0; e < book.editions.size(); ++e) {
    book::load_edition(book, e, diags);
    filters::resolve_edition(book, e, r, diags);
    for (std::size_t f = 0; f < book.editions.size(); ++f)
      for (const auto& c : book.editions[f].chapters) {
        EXPECT_EQ(c.root.children.empty(), f != e) << book.editions[f].edition.id << " " << c.key;
        // A title is known once its chapter was loaded, and kept after its tree is dropped.
        EXPECT_EQ(c.title, f <= e ? whole->book.editions[f].chapter(c.key)->title : "");
      }
    writer->add_edition(e);
    book::unload_edition(book, e);
    EXPECT_FALSE(book.editions[e].chapters.front().title.empty());
  }
  filters::finish_resolution(book, r, diags);
  EXPECT_FALSE(diags.has_errors());
  EXPECT_EQ(r.bindings.size(), whole->resolution.bindings.size());
  EXPECT_EQ(r.ids, whole->resolution.ids);
  SiteSummary summary = writer->finish();
  writer.reset();
  EXPECT_TRUE(summary.written);
  std::size_t pages = 0;
  for (const auto& [rel, content] : whole->files.generated) pages += rel.ends_with(".html");
  EXPECT_EQ(summary.pages, pages);
  EXPECT_EQ(summary.search_index_bytes, whole->files.search_index_bytes);
  auto a = files_under(out.path / "whole"), b = files_under(out.path / "by-edition");
  EXPECT_GT(a.size(), 10u);
  EXPECT_EQ(a.size(), b.size());
  for (const auto& [rel, bytes] : a) {
    auto it = b.find(rel);
    ASSERT_NE(it, b.end()) << rel;
    EXPECT_TRUE(it->second == bytes) << rel << " differs";
  }
}

// An error found while the editions are written (here, after the last one) leaves the previous site
// in place and no staged folder behind.
TEST(Site, WrittenOneEditionAtATimeNothingIsSwappedInAfterAnError) {
  const fs::path root = test::fixtures() / "books" / "mini";
  test::TempDir out;
  test::write_file(out.path / "site" / "index.html", "the previous build");
  Diagnostics diags;
  auto cfg = book::load_config(root, diags);
  ASSERT_TRUE(cfg);
  book::Book book = book::book_outline(std::move(*cfg), diags);
  filters::Resolution r = filters::begin_resolution(book);
  SiteOptions o;
  o.figure_cache = fs::temp_directory_path() / "bb-site-test-figures";
  {
    SiteWriter writer(book, r, o, diags, out.path / "site");
    for (std::size_t e = 0; e < book.editions.size(); ++e) {
      book::load_edition(book, e, diags);
      filters::resolve_edition(book, e, r, diags);
      writer.add_edition(e);
      book::unload_edition(book, e);
    }
    diags.error({root / "book.toml", 1, 1}, "a problem found last");
    EXPECT_FALSE(writer.finish().written);
  }
  EXPECT_EQ(test::read_file(out.path / "site" / "index.html"), "the previous build");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(out.path)) ++entries;
  EXPECT_EQ(entries, 1u);  // only site/: the staged sibling is gone
}

// A rebuild that changes nothing leaves the site folder as it is (issue 49: no file staged, linked or
// unlinked); a file the build did not make, or a changed chapter, gets the whole site staged and
// swapped in as before, the stray file gone and the change in its page.
TEST(Site, AnUnchangedRebuildLeavesTheFolderAndAChangeOrAStrayFileSwapsItWhole) {
  test::TempDir t;
  const fs::path book = t.path / "book", out = t.path / "out";
  fs::copy(test::fixtures() / "books" / "mini", book, fs::copy_options::recursive);
  const std::string site = "BOOKBUILD_RUN_RECORD=0 '" BOOKBUILD_EXE "' -q --book '" + book.string() +
                           "' --out '" + out.string() + "' site";
  const auto inode = [](const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
  };
  ASSERT_EQ(test::run_command(site).exit_code, 0);
  const auto folder = inode(out / "site"), page = inode(out / "site" / "index.html");
  ASSERT_NE(folder, 0u);
  ASSERT_EQ(test::run_command(site).exit_code, 0);
  EXPECT_EQ(inode(out / "site"), folder);
  EXPECT_EQ(inode(out / "site" / "index.html"), page);

  test::write_file(out / "site" / "stray.html", "not made by this build");
  ASSERT_EQ(test::run_command(site).exit_code, 0);
  EXPECT_FALSE(fs::exists(out / "site" / "stray.html"));
  EXPECT_NE(inode(out / "site"), folder);

  std::ofstream(book / "manuscripts" / "01-带宽.md", std::ios::app) << "\n\nA paragraph added by the test.\n";
  ASSERT_EQ(test::run_command(site).exit_code, 0);
  bool found = false;
  for (const auto& f : fs::directory_iterator(out / "site"))
    found = found || test::read_file(f.path()).find("A paragraph added by the test.") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(Site, LanguageSwitcherLeadsToTheSameChapterWithAlternates) {
  auto b = build(test::fixtures() / "books" / "mini");
  const std::string& zh = page(*b, "ch01.html");
  EXPECT_NE(zh.find("href=\"en/ch01.html\" data-page=\"en/ch01.html\" hreflang=\"en\""), std::string::npos);
  // Alternates and canonical are absolute (search engines ignore relative ones), from [book] site-url.
  EXPECT_NE(
      zh.find("<link rel=\"alternate\" hreflang=\"en\" href=\"https://example.org/mini/site/en/ch01.html\">"),
      std::string::npos);
  EXPECT_NE(
      zh.find(
          "<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.org/mini/site/ch01.html\">"),
      std::string::npos);
  EXPECT_NE(zh.find("<link rel=\"canonical\" href=\"https://example.org/mini/site/ch01.html\">"),
            std::string::npos);
  const std::string& en = page(*b, "en/ch01.html");
  EXPECT_NE(en.find("href=\"../ch01.html\" data-page=\"../ch01.html\" hreflang=\"zh-Hans\""),
            std::string::npos);
  EXPECT_NE(en.find("<html lang=\"en\""), std::string::npos);
  EXPECT_NE(en.find("href=\"../assets/book.css\""), std::string::npos);
}

TEST(Site, StableAnchorsAreTheSameInEveryEdition) {
  auto b = build(test::fixtures() / "books" / "mini");
  for (const char* rel : {"ch01.html", "en/ch01.html"}) {
    const std::string& p = page(*b, rel);
    EXPECT_NE(p.find("<h2 id=\"sec-1-1\">"), std::string::npos) << rel;
    EXPECT_NE(p.find("<figure id=\"fig-1-1\">"), std::string::npos) << rel;
  }
}

TEST(Site, SidebarTocPagerAndCaptions) {
  auto b = build(test::fixtures() / "books" / "mini");
  const std::string& p = page(*b, "ch01.html");
  EXPECT_NE(
      p.find("<a href=\"ch01.html\" aria-current=\"page\">第 1 章 带宽</a><ol><li><a href=\"#sec-1-1\">"),
      std::string::npos);
  // One entry is current, and only the current chapter lists its sections; the home page marks none.
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(p, "aria-current=\"page\""), 1u);
  EXPECT_NE(p.find("<li><a href=\"preface.html\">"), std::string::npos);
  EXPECT_EQ(count(page(*b, "preface.html"), "aria-current=\"page\""), 1u);
  EXPECT_EQ(page(*b, "preface.html").find("href=\"#sec-1-1\""), std::string::npos);
  EXPECT_EQ(count(page(*b, "index.html"), "aria-current=\"page\""), 0u);
  EXPECT_NE(page(*b, "index.html").find("<a href=\"ch01.html\">第 1 章 带宽</a></li>"), std::string::npos);
  EXPECT_NE(p.find("class=\"page-toc\""), std::string::npos);
  EXPECT_NE(p.find("rel=\"prev\" href=\"preface.html\""), std::string::npos);
  EXPECT_NE(p.find("<span class=\"caption-label\">图 1-1</span>"), std::string::npos);
  EXPECT_NE(p.find("<math xmlns=\"http://www.w3.org/1998/Math/MathML\""), std::string::npos)
      << "MathML, no script";
  const std::string& pre = page(*b, "preface.html");
  EXPECT_NE(pre.find("<a class=\"xref\" href=\"ch01.html\">第 1 章</a>"), std::string::npos)
      << "plain reference";
}

TEST(Site, SitemapListsEveryPageWithAlternates) {
  auto b = build(test::fixtures() / "books" / "mini");
  const std::string& s = page(*b, "sitemap.xml");
  EXPECT_NE(s.find("<loc>https://example.org/mini/site/en/ch01.html</loc>"), std::string::npos);
  EXPECT_NE(s.find("hreflang=\"zh-Hans\" href=\"https://example.org/mini/site/ch01.html\""),
            std::string::npos);
}

// The search box is in the page as served, labelled in the edition's language, so the header is laid
// out once before search.js runs (it only fills an empty host from a custom template).
TEST(Site, EveryPageHasItsSearchBoxBeforeAnyScriptRuns) {
  auto b = build(test::fixtures() / "books" / "mini");
  for (const char* rel : {"index.html", "ch01.html", "en/index.html", "en/ch01.html"}) {
    const std::string& p = page(*b, rel);
    EXPECT_NE(p.find("<input type=\"search\" class=\"search-input\""), std::string::npos) << rel;
    EXPECT_NE(p.find("<div class=\"search-results\" hidden>"), std::string::npos) << rel;
  }
  EXPECT_NE(page(*b, "en/ch01.html").find("aria-label=\"Search\""), std::string::npos);
}

TEST(Site, SiteRootPathIsThePathOfSiteUrl) {
  book::Config cfg;
  EXPECT_EQ(meta::site_root_path(cfg), "/");
  cfg.site_url = "https://example.org/";
  EXPECT_EQ(meta::site_root_path(cfg), "/");
  cfg.site_url = "http://127.0.0.1:8000/";
  EXPECT_EQ(meta::site_root_path(cfg), "/");
  cfg.site_url = "https://user.github.io/my%20book/";
  EXPECT_EQ(meta::site_root_path(cfg), "/my%20book/");
}

// A host serves 404.html for a missing page at any depth, so its links are site-absolute; under a
// sub-path (a project page on GitHub Pages) they must start with that path, or the page has no style.
TEST(Site, The404PageWorksUnderTheSiteUrlsPath) {
  auto b = build(test::fixtures() / "books" / "mini");  // site-url https://example.org/mini/site/
  const std::string& p = page(*b, "404.html");
  EXPECT_NE(p.find("href=\"/mini/site/assets/book.css\""), std::string::npos) << p;
  EXPECT_NE(p.find("href=\"/mini/site/index.html\""), std::string::npos);
  EXPECT_NE(p.find("href=\"/mini/site/en/index.html\""), std::string::npos);
  EXPECT_EQ(p.find("href=\"/assets/"), std::string::npos);

  // `check site` follows them under that path; at the domain root they would lead out of the site.
  fs::path out = fs::temp_directory_path() / "bb-site-test-404";
  fs::remove_all(out);
  write_site(b->files, out);
  Diagnostics under;
  EXPECT_EQ(check::check_site(out, under, "/mini/site/").problems, 0u);
  EXPECT_FALSE(under.has_errors());
  Diagnostics at_root;
  EXPECT_GT(check::check_site(out, at_root, "/").problems, 0u);
  fs::remove_all(out);
}

TEST(Site, WithoutSiteUrlNoRelativeAlternatesNoSitemapAndAWarning) {
  Diagnostics diags;
  auto cfg = book::load_config(test::fixtures() / "books" / "mini", diags);
  ASSERT_TRUE(cfg);
  cfg->site_url.clear();
  auto book = book::load_book(std::move(*cfg), diags);
  auto resolution = filters::resolve(book, diags);
  SiteOptions o;
  o.figure_cache = fs::temp_directory_path() / "bb-site-test-figures";
  auto files = render_site(book, resolution, o, diags);
  EXPECT_FALSE(files.generated.count("sitemap.xml"));
  const std::string& p = files.generated.at("en/ch01.html");
  EXPECT_EQ(p.find("rel=\"alternate\""), std::string::npos);
  EXPECT_EQ(p.find("rel=\"canonical\""), std::string::npos);
  bool warned = false;
  for (const auto& d : diags.all())
    warned |= d.message.find("site-url") != std::string::npos && d.loc.path.filename() == "book.toml";
  EXPECT_TRUE(warned);
}

TEST(Site, DownloadsAreTheFilesTheEpubAndPdfCommandsWrite) {
  Diagnostics diags;
  auto cfg = book::load_config(test::fixtures() / "books" / "mini", diags);
  ASSERT_TRUE(cfg);
  auto book = book::load_book(std::move(*cfg), diags);
  ASSERT_FALSE(book.editions.empty());
  const book::Edition& edition = book.editions.back().edition;
  test::TempDir out;
  fs::create_directories(out.path / "epub");
  fs::create_directories(out.path / "pdf");
  // Files whose names only end like this edition's (another book, an edition id ending in this one).
  test::write_file(out.path / "epub" / ("other-x-" + edition.id + ".epub"), "not this book");
  test::write_file(out.path / "pdf" / ("zz-" + edition.id + ".pdf"), "not this book");
  EXPECT_TRUE(meta::downloads(out.path, book.config, edition).empty());
  const std::string epub = book::output_file(book.config, edition, ".epub");
  test::write_file(out.path / "epub" / epub, "the edition's EPUB");
  auto found = meta::downloads(out.path, book.config, edition);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].site_path, "downloads/" + epub);
  EXPECT_EQ(found[0].format, "EPUB");
}

TEST(Site, DescriptionSharingTagsIconAndSourceLink) {
  auto b = build(test::fixtures() / "books" / "mini");
  const std::string& p = page(*b, "en/ch01.html");
  // The description is the chapter's first paragraph, as plain text.
  auto at = p.find("<meta name=\"description\" content=\"");
  ASSERT_NE(at, std::string::npos);
  std::string description = p.substr(at + 34, p.find('"', at + 34) - at - 34);
  EXPECT_FALSE(description.empty());
  EXPECT_EQ(description.find('<'), std::string::npos);
  EXPECT_NE(p.find("<meta property=\"og:title\""), std::string::npos);
  EXPECT_NE(p.find("<meta name=\"twitter:card\" content=\"summary\">"), std::string::npos);
  EXPECT_NE(p.find("<link rel=\"icon\" href=\"../assets/favicon.svg\" type=\"image/svg+xml\">"),
            std::string::npos);
  EXPECT_TRUE(b->files.copied.count("assets/favicon.svg"));
  // The manuscript at the build's commit, by its path in the repository (the fixture's own folder
  // inside this one, or the book root when the tests run outside a git checkout).
  const std::string in_repo = fs::relative(test::fixtures() / "books" / "mini" / "book-en" / "chapter01.md",
                                           b->resolution.repository.toplevel)
                                  .generic_string();
  EXPECT_NE(p.find("class=\"view-source\" href=\"https://example.org/mini/blob/" + b->resolution.commit +
                   "/" + in_repo + "\""),
            std::string::npos)
      << in_repo;
  EXPECT_EQ(p.find("role=\"doc-endnote\""), std::string::npos);
}

TEST(Site, IncrementalUpdateWritesOnlyChangedPages) {
  fs::path out = fs::temp_directory_path() / ("bb-site-inc-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto a = build(test::fixtures() / "books" / "mini");
  write_site(a->files, out);
  SiteFiles next = a->files;
  next.generated["en/ch01.html"] += "<!-- changed -->";
  next.generated.erase("en/preface.html");
  auto changed = server::update_site(a->files, next, out);
  EXPECT_EQ(changed, std::vector<std::string>{"en/ch01.html"});
  EXPECT_NE(test::read_file(out / "en" / "ch01.html").find("<!-- changed -->"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "en" / "preface.html"));
  EXPECT_TRUE(server::update_site(next, next, out).empty());
  fs::remove_all(out);
}

TEST(Site, MissingImageIsAnErrorAtTheManuscriptLine) {
  fs::path root = fs::temp_directory_path() / ("bb-site-img-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::copy(test::fixtures() / "books" / "mini", root, fs::copy_options::recursive);
  fs::remove(root / "manuscripts" / "img" / "bw.svg");
  auto b = build(root);
  ASSERT_TRUE(b->diags.has_errors());
  bool found = false;
  for (const auto& d : b->diags.all())
    found =
        found || (d.loc.path.filename() == "01-带宽.md" && d.loc.line == 11 && d.severity == Severity::Error);
  EXPECT_TRUE(found);
  fs::remove_all(root);
}

}  // namespace
}  // namespace bb::site
