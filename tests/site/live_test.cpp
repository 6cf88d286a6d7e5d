// `site --serve` after an edit of one chapter: the chapter alone is parsed, resolved and rendered
// again (book::reload_chapter, filters::resolve_again, site::render_pages). What it gives must be
// exactly what a full build of the edited book gives — page, diagnostics, bindings — and when the
// edit changes what other chapters read (targets, ids, title), it must say so instead.
#include <regex>

#include "book/book.hpp"
#include "book/config.hpp"
#include "cli/calc_evaluator.hpp"
#include "filters/pipeline.hpp"
#include "server/live_patch.hpp"
#include "server/watch.hpp"
#include "site/site.hpp"
#include "test_support.hpp"

namespace bb::site {
namespace {

namespace fs = std::filesystem;

struct Session {
  book::Book book;
  filters::Resolution resolution;
  Diagnostics diags;
  std::optional<filters::Evaluator> evaluator;
  SiteOptions options;
  SiteFiles files;

  [[nodiscard]] filters::ResolveOptions resolve_options() const {
    filters::ResolveOptions o;
    o.evaluate = evaluator ? &*evaluator : nullptr;
    o.repository = &resolution.repository;
    return o;
  }
};

// The project's own book (four editions, computed numbers, figures), copied so that it can be edited.
std::unique_ptr<Session> full_build(const fs::path& root) {
  auto s = std::make_unique<Session>();
  auto cfg = book::load_config(root, s->diags);
  EXPECT_TRUE(cfg);
  s->book = book::load_book(std::move(*cfg), s->diags);
  s->evaluator = cli::make_evaluator(s->book.config.calculations);
  filters::ResolveOptions o;
  o.evaluate = s->evaluator ? &*s->evaluator : nullptr;
  s->resolution = filters::resolve(s->book, s->diags, o);
  s->options.live_reload = true;
  s->options.figure_cache = root / "out" / ".cache" / "figures";
  s->options.out = root / "out";
  s->files = render_site(s->book, s->resolution, s->options, s->diags);
  return s;
}

// Where the chapter is: (edition index, chapter index).
std::pair<std::size_t, std::size_t> find_chapter(const book::Book& b, const std::string& edition,
                                                 const std::string& key) {
  for (std::size_t e = 0; e < b.editions.size(); ++e)
    for (std::size_t i = 0; i < b.editions[e].chapters.size(); ++i)
      if (b.editions[e].edition.id == edition && b.editions[e].chapters[i].key == key) return {e, i};
  ADD_FAILURE() << edition << " " << key;
  return {0, 0};
}

// What a live session does with the edited chapter; false when it must rebuild everything.
bool rebuild_alone(Session& s, std::size_t e, std::size_t i, SiteFiles& out) {
  book::Chapter& c = s.book.editions[e].chapters[i];
  const std::string old_title = c.title;
  s.diags.forget(c.path);
  book::reload_chapter(s.book, e, i, s.diags);
  if (!filters::resolve_again(s.book, s.resolution, e, i, old_title, s.diags, s.resolve_options()))
    return false;
  out = render_pages(s.book, s.resolution, s.options, s.diags, {{e, i}}, &s.files);  // as the server does
  return true;
}

std::vector<std::string> shown(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d.all()) out.push_back(format_diagnostic(x) + " [" + x.check + "]");
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> bindings(const filters::Resolution& r) {
  std::vector<std::string> out;
  for (const auto& b : r.bindings)
    out.push_back(b.edition.str() + " " + b.chapter.str() + ":" + std::to_string(b.loc.line) + ":" +
                  std::to_string(b.loc.col) + " " + b.expr + " = " + b.shown + (b.ok ? "" : " (wrong)"));
  return out;
}

TEST(LiveRebuild, AnEditedChapterAloneGivesWhatAFullBuildGives) {
  test::TempDir dir("bb-live");
  const fs::path root = test::copy_project_book(dir.path);
  auto live = full_build(root);
  ASSERT_FALSE(live->diags.has_errors());

  // The edit: the chapter's text changes above its targets (so their places move) and gains a
  // computed number, a reference to another chapter's figure and a link to a missing anchor.
  const fs::path file = root / "book-en" / "chapter04.md";
  std::string text = test::read_file(file);
  std::smatch calc;
  ASSERT_TRUE(std::regex_search(text, calc, std::regex(R"(\{\{calc [^}]+\}\})")))
      << "no placeholder to reuse";
  const std::string placeholder = calc.str();
  std::smatch label;
  const std::string other = test::read_file(root / "book-en" / "chapter02.md");
  ASSERT_TRUE(std::regex_search(other, label, std::regex(R"(\{#(fig:[A-Za-z0-9_-]+))"))) << "no figure label";
  std::size_t first_paragraph = text.find("\n\n");
  ASSERT_NE(first_paragraph, std::string::npos);
  text.insert(first_paragraph + 2, "A sentence added at the top,\nover two lines, with " + placeholder +
                                       ", @" + label.str(1) + " and [a missing place](#nowhere).\n\n");
  test::write_file(file, text);

  auto [e, i] = find_chapter(live->book, "en", "ch04");
  SiteFiles part;
  ASSERT_TRUE(rebuild_alone(*live, e, i, part));
  ASSERT_EQ(part.generated.size(), 1u);
  const std::string page = chapter_page(live->book.editions[e].edition, "ch04");
  ASSERT_TRUE(part.generated.count(page));

  auto fresh = full_build(root);
  const SiteFiles& all = fresh->files;
  EXPECT_EQ(part.generated.at(page), all.generated.at(page));
  // The edit changed the page's description (its first paragraph): the open page must fetch itself.
  EXPECT_FALSE(server::block_patch(live->files.generated.at(page), part.generated.at(page)));
  for (const auto& [rel, src] : part.copied) EXPECT_EQ(all.copied.at(rel), src) << rel;
  EXPECT_EQ(shown(live->diags), shown(fresh->diags));
  EXPECT_EQ(bindings(live->resolution), bindings(fresh->resolution));
  bool missing_anchor = false;
  for (const auto& s : shown(live->diags)) missing_anchor |= s.find("`#nowhere`") != std::string::npos;
  EXPECT_TRUE(missing_anchor);

  // A second edit, at the end: the open page gets it as a patch of the blocks that changed.
  test::write_file(file, text + "\nOne more sentence at the end.\n");
  SiteFiles second;
  ASSERT_TRUE(rebuild_alone(*live, e, i, second));
  auto patch = server::block_patch(part.generated.at(page), second.generated.at(page));
  ASSERT_TRUE(patch);
  EXPECT_NE(patch->find("One more sentence at the end."), std::string::npos);
  EXPECT_LT(patch->size(), part.generated.at(page).size() / 10);
  EXPECT_EQ(second.generated.at(page), full_build(root)->files.generated.at(page));
}

// Edits that change what other pages show or what other chapters' references resolve to.
TEST(LiveRebuild, EditsThatOtherChaptersReadNeedTheWholeBook) {
  test::TempDir dir("bb-live");
  const fs::path root = test::copy_project_book(dir.path);
  const fs::path file = root / "book-en" / "chapter04.md";
  const std::string original = test::read_file(file);
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"a new section", original + "\n## A section added at the end\n\nText.\n"},
      {"a new label", original + "\nA [labelled place]{#added-anchor} in the text.\n"},
      {"a new title", "# Chapter 4 A Different Title\n" + original.substr(original.find('\n') + 1)},
  };
  for (const auto& [what, text] : edits) {
    test::write_file(file, original);
    auto live = full_build(root);
    test::write_file(file, text);
    auto [e, i] = find_chapter(live->book, "en", "ch04");
    SiteFiles part;
    EXPECT_FALSE(rebuild_alone(*live, e, i, part)) << what;
  }
}

// A page as the dev server writes it: head and chrome around marked blocks (writers/html.cpp).
std::string marked_page(const std::string& title,
                        const std::vector<std::pair<std::string, std::string>>& blocks) {
  std::string out = "<html><head><title>" + title + "</title></head><body><main id=\"content\">\n";
  for (const auto& [hash, body] : blocks)
    out += "<div class=\"bb-block\" data-h=\"" + hash + "\">" + body + "</div><!--bb-->\n";
  return out + "</main></body></html>\n";
}

TEST(LiveRebuild, APatchCarriesOnlyTheBlocksThatChanged) {
  const std::string a(16, 'a'), b(16, 'b'), c(16, 'c'), x(16, 'e');
  std::string before = marked_page("T", {{a, "<p>A</p>"}, {b, "<p>B</p>"}, {c, "<p>C</p>"}});
  std::string after = marked_page("T", {{a, "<p>A</p>"}, {x, "<p>X\nY</p>"}, {c, "<p>C</p>"}});
  auto patch = server::block_patch(before, after);
  ASSERT_TRUE(patch);
  EXPECT_EQ(*patch, "3 1 1\n" + b + "\n<div class=\"bb-block\" data-h=\"" + x + "\"><p>X\nY</p></div>");
  // A block added at the end, one removed from the start.
  const std::string longer =
      marked_page("T", {{a, "<p>A</p>"}, {b, "<p>B</p>"}, {c, "<p>C</p>"}, {x, "<p>X</p>"}});
  EXPECT_EQ(server::block_patch(before, longer).value_or("none"),
            "3 3 0\n\n<div class=\"bb-block\" data-h=\"" + x + "\"><p>X</p></div>");
  const std::string shorter = marked_page("T", {{b, "<p>B</p>"}, {c, "<p>C</p>"}});
  EXPECT_EQ(server::block_patch(before, shorter).value_or("none"), "3 0 2\n" + a + "\n");
  // Anything outside the blocks (here the title) changed: the page must be fetched.
  EXPECT_FALSE(
      server::block_patch(before, marked_page("U", {{a, "<p>A</p>"}, {x, "<p>X</p>"}, {c, "<p>C</p>"}})));
  // A carriage return would break the event stream; a page without blocks has nothing to patch.
  EXPECT_FALSE(
      server::block_patch(before, marked_page("T", {{a, "<p>A</p>"}, {x, "<p>X\r</p>"}, {c, "<p>C</p>"}})));
  EXPECT_FALSE(server::block_patch("<html></html>", "<html> </html>"));
  EXPECT_FALSE(server::block_patch(before, after, 10));  // larger than the limit
}

// What the watcher reports for the ways editors save: in place, through a temporary renamed over the
// file (`sed -i`, many editors), with a probe file created and removed (vim's `4913`).
TEST(LiveRebuild, TheWatcherReportsTheSavedFileNotTheEditorsTemporaries) {
  test::TempDir dir("bb-watch");
  const fs::path chapter = dir.path / "chapter.md", image = dir.path / "figure.svg";
  test::write_file(chapter, "# One\n");
  server::Watcher watcher;
  watcher.add_tree(dir.path);
  using std::chrono::milliseconds;
  auto saved = [&] {
    auto changed = watcher.wait(milliseconds(2000), milliseconds(50));
    std::vector<std::string> names;
    for (const auto& p : changed) names.push_back(p.filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  test::write_file(chapter, "# Two\n");
  EXPECT_EQ(saved(), std::vector<std::string>{"chapter.md"});
  test::write_file(dir.path / "sedAb12Cd", "# Three\n");
  fs::rename(dir.path / "sedAb12Cd", chapter);
  EXPECT_EQ(saved(), std::vector<std::string>{"chapter.md"});
  test::write_file(dir.path / "4913", "");
  fs::remove(dir.path / "4913");
  test::write_file(chapter, "# Four\n");
  EXPECT_EQ(saved(), std::vector<std::string>{"chapter.md"});
  test::write_file(image, "<svg/>");  // a new file that stays is a change
  EXPECT_EQ(saved(), std::vector<std::string>{"figure.svg"});
  EXPECT_TRUE(saved().empty());  // nothing else happened: the wait times out
}

}  // namespace
}  // namespace bb::site
