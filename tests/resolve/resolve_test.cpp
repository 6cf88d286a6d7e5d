// Resolver cases (tests/resolve/cases/<case>/): the numbers and ids of numbered things, the
// destinations of links and references, and the diagnostics of the resolved book
// against expected.txt, and the site, EPUB and LaTeX of the same book checked to carry every id a
// reference or link points to — the test that keeps the three outputs from drifting apart.
#include <regex>

#include "book/book.hpp"
#include "epub/epub.hpp"
#include "filters/pipeline.hpp"
#include "lang/language.hpp"
#include "site/site.hpp"
#include "test_support.hpp"
#include "typeset/book_tex.hpp"
#include "writers/latex.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path cases() {
  return BOOKBUILD_RESOLVE_CASES;
}

struct Resolved {
  book::Book book;
  filters::Resolution resolution;
  Diagnostics diags;
};

std::unique_ptr<Resolved> resolve_case(const std::string& name) {
  auto r = std::make_unique<Resolved>();
  auto config = book::load_config(cases() / name, r->diags);
  EXPECT_TRUE(config) << name;
  r->book = book::load_book(std::move(*config), r->diags);
  // A fixed repository: the cases live inside this project's own checkout, whose commit moves.
  repo::Repository repository;
  repository.toplevel = r->book.config.root;
  repository.commit = "0123456789abcdef0123456789abcdef01234567";
  repository.web_url = repo::normalize_repository_url(r->book.config.repository);
  filters::ResolveOptions options;
  options.repository = &repository;
  r->resolution = filters::resolve(r->book, r->diags, options);
  return r;
}

std::string dump(const Resolved& r) {
  std::string out;
  for (const auto& eb : r.book.editions) {
    for (const auto& c : eb.chapters) {
      std::string where = fs::relative(c.path, r.book.config.root).generic_string();
      doc::walk(c.root, [&](const doc::Node& n) {
        // Numbered things: the id every output writes and the number a reader sees.
        if (!n.number().empty()) {
          out += where + ":" + std::to_string(n.loc.line) + ":" + std::to_string(n.loc.col) + " " +
                 doc::kind_name(n.kind) + " id=" + n.id() + " number=" + n.number() + "\n";
          return;
        }
        bool broken = n.kind == doc::Kind::Span && n.has_class("broken-link");
        if (n.kind != doc::Kind::Link && n.kind != doc::Kind::Image && n.kind != doc::Kind::CrossRef &&
            !broken)
          return;
        out += where + ":" + std::to_string(n.loc.line) + ":" + std::to_string(n.loc.col) + " " +
               (broken ? "unlinked" : doc::kind_name(n.kind));
        for (const char* key : {"dest", "chapter", "target", "asset", "href"})
          if (const std::string* v = n.attr(key)) out += std::string(" ") + key + "=" + *v;
        if (n.kind != doc::Kind::CrossRef && !n.url().empty()) out += " url=" + n.url();
        out += "\n";
      });
    }
  }
  for (const auto& d : r.diags.all()) {
    std::string path =
        d.loc.path.empty() ? "" : fs::relative(d.loc.path, r.book.config.root).generic_string();
    out += path + ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
           (d.severity == Severity::Error     ? "error"
            : d.severity == Severity::Warning ? "warning"
                                              : "note") +
           ": " + d.message + "\n";
  }
  return out;
}

std::vector<std::string> all_cases() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(cases()))
    if (fs::exists(e.path() / "book.toml")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Resolve, DestinationsAndDiagnosticsAreAsExpected) {
  auto names = all_cases();
  ASSERT_GE(names.size(), 3u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    auto r = resolve_case(name);
    test::expect_golden(cases() / name / "expected.txt", dump(*r));
  }
}

// Every (chapter, id) a Link or CrossRef of an edition points to.
std::set<std::pair<std::string, std::string>> targets_of(const book::EditionBook& eb) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& c : eb.chapters)
    doc::walk(c.root, [&](const doc::Node& n) {
      const std::string* chapter = n.attr("chapter");
      const std::string* target = n.attr("target");
      if ((n.kind == doc::Kind::Link || n.kind == doc::Kind::CrossRef) && chapter && target)
        out.emplace(*chapter, *target);
    });
  return out;
}

TEST(Resolve, SiteEpubAndLatexCarryEveryReferencedId) {
  std::size_t books = 0;
  for (const auto& name : all_cases()) {
    SCOPED_TRACE(name);
    auto r = resolve_case(name);
    if (r->diags.has_errors()) continue;  // a case about errors builds no output
    auto tmp = fs::temp_directory_path() / ("bb-resolve-" + std::to_string(::getpid()) + "-" + name);
    site::SiteOptions so;
    so.search = false;
    so.figure_cache = tmp / "cache";
    auto site_files = site::render_site(r->book, r->resolution, so, r->diags);
    std::size_t checked = 0;
    for (const auto& eb : r->book.editions) {
      auto targets = targets_of(eb);
      ASSERT_FALSE(targets.empty());
      epub::EpubOptions eo;
      eo.figure_cache = tmp / "cache";
      eo.modified = 0;
      auto epub_files = epub::build_files(r->book, eb, eo, r->diags);
      auto tex = typeset::write_latex_book(r->book, eb, tmp / eb.edition.id, r->diags);
      std::string book_tex = test::read_file(tex.tex);
      for (const auto& [chapter, id] : targets) {
        SCOPED_TRACE(eb.edition.id + " " + chapter + "#" + id);
        const std::string& page = site_files.generated[eb.edition.site_path + chapter + ".html"];
        std::string xhtml;
        for (const auto& f : epub_files)
          if (f.name == "EPUB/" + chapter + ".xhtml") xhtml = f.data;
        ASSERT_FALSE(page.empty());
        ASSERT_FALSE(xhtml.empty());
        EXPECT_NE(page.find("id=\"" + id + "\""), std::string::npos) << "site page lacks the id";
        EXPECT_NE(xhtml.find("id=\"" + id + "\""), std::string::npos) << "EPUB file lacks the id";
        std::string key = id == chapter ? writers::latex_key(chapter, "") : writers::latex_key(chapter, id);
        EXPECT_NE(book_tex.find("\\label{" + key + "}"), std::string::npos)
            << "LaTeX lacks \\label{" << key << "}";
        ++checked;
      }
    }
    EXPECT_GT(checked, 0u);
    ++books;
    fs::remove_all(tmp);
  }
  EXPECT_GE(books, 1u) << "no case builds without errors: nothing was compared";
}

TEST(Languages, TagsMatchTheMostSubtags) {
  EXPECT_EQ(lang::language("zh-Hans").family, "zh-hans");
  EXPECT_EQ(lang::language("zh").family, "zh-hans");
  EXPECT_EQ(lang::language("zh-CN").family, "zh-hans");
  EXPECT_EQ(lang::language("zh-Hant").family, "zh-hant");
  EXPECT_EQ(lang::language("zh-TW").family, "zh-hant");
  EXPECT_EQ(lang::language("zh-hk").family, "zh-hant");
  EXPECT_EQ(lang::language("zh-Hant-TW").family, "zh-hant");
  EXPECT_EQ(lang::language("ru-RU").family, "ru");
  EXPECT_EQ(lang::language("de").family, "en") << "no file: English";
  EXPECT_EQ(lang::language("zh-TW").word("site.search"), "搜尋");
  EXPECT_EQ(lang::language("ru").decimal, ",");
}

}  // namespace
}  // namespace bb
