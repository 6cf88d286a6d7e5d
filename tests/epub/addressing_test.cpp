// The EPUB's addressing: ids a reader can jump to, and links that land inside the EPUB or on the
// repository at the pinned commit.
#include "epub/addressing.hpp"
#include "markdown/frontend.hpp"
#include "test_support.hpp"
#include "writers/html.hpp"

namespace bb::epub {
namespace {

namespace fs = std::filesystem;

doc::Node parse(const std::string& md, const std::string& file = "/book/manuscripts/01.md") {
  Diagnostics d;
  auto root = markdown::parse(md, file, d);
  EXPECT_FALSE(d.has_errors());
  return root;
}

std::string first_link_url(const doc::Node& root, doc::Kind kind = doc::Kind::Link) {
  std::string url = "<none>";
  doc::walk(root, [&](const doc::Node& n) {
    if (n.kind == kind && url == "<none>") url = n.url;
  });
  return url;
}

// A two-chapter edition under /book, in a repository at /book.
struct Fixture {
  Addressing a;
  Fixture() {
    a.repository_root = "/book";
    a.repository_blob = "https://example.org/o/b/blob/abc123/";
    a.chapters.push_back({"preface", "preface.xhtml", "/book/manuscripts/00.md", {"intro"}});
    a.chapters.push_back({"ch01", "ch01.xhtml", "/book/manuscripts/01.md", {"sec-1-1", "fig-1-1"}});
  }
  std::string rewrite(doc::Node& root, Diagnostics& d) {
    rewrite_links(root, a.chapters[1], a, d);
    return first_link_url(root);
  }
};

TEST(Ids, RepeatedIdsAreRenamedAndSectionsGetIds) {
  auto root = parse("# T\n\n## A {#x}\n\n## B {#x}\n\n### C\n\n[]{#x}\n\nn[^f]\n\n[^f]: note\n");
  auto ids = assign_ids(root);
  EXPECT_EQ(root.children[1].id, "x");
  EXPECT_EQ(root.children[2].id, "x-2");
  EXPECT_EQ(root.children[3].id, "toc-1");
  EXPECT_TRUE(ids.count("x-3")) << "the anchor is the third x";
  EXPECT_TRUE(ids.count("fn-f"));
  EXPECT_TRUE(ids.count("fnref-f"));
  EXPECT_TRUE(root.children[0].id.empty()) << "the chapter title is the file itself";
}

TEST(Ids, RenderedIdsAreUniqueInTheFile) {
  auto root = parse("## A {#x}\n\n## A {#x}\n\n## A {#x}\n");
  assign_ids(root);
  writers::HtmlOptions o;
  o.xhtml = true;
  std::string html = writers::render_html(root, o);
  EXPECT_NE(html.find("id=\"x\""), std::string::npos);
  EXPECT_NE(html.find("id=\"x-2\""), std::string::npos);
  EXPECT_NE(html.find("id=\"x-3\""), std::string::npos);
}

TEST(Links, ResolvedCrossReferenceBecomesALinkIntoTheChapterFile) {
  Fixture f;
  doc::Node root(doc::Kind::Document);
  doc::Node ref(doc::Kind::CrossRef);
  ref.text = "fig:x";
  ref.set_attr("chapter", "ch01");
  ref.set_attr("target", "fig-1-1");
  doc::Node label(doc::Kind::Text);
  label.text = "Figure 1-1";
  ref.children.push_back(label);
  root.children.push_back(ref);
  Diagnostics d;
  rewrite_links(root, f.a.chapters[0], f.a, d);
  EXPECT_EQ(root.children[0].kind, doc::Kind::Link);
  EXPECT_EQ(root.children[0].url, "ch01.xhtml#fig-1-1");
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(Links, LinkWithChapterAttributeUsesIt) {
  Fixture f;
  auto root = parse("[intro](00.md#whatever)\n");
  doc::walk(root, [](doc::Node& n) {
    if (n.kind == doc::Kind::Link) {
      n.set_attr("chapter", "preface");
      n.set_attr("target", "intro");
    }
  });
  Diagnostics d;
  EXPECT_EQ(f.rewrite(root, d), "preface.xhtml#intro");
}

TEST(Links, RelativeLinkToAnotherChapterFileLandsOnItsXhtml) {
  Fixture f;
  Diagnostics d;
  auto a = parse("[p](00.md)\n");
  EXPECT_EQ(f.rewrite(a, d), "preface.xhtml");
  auto b = parse("[p](./00.md#intro)\n");
  EXPECT_EQ(f.rewrite(b, d), "preface.xhtml#intro");
  auto c = parse("[s](#sec-1-1)\n");
  EXPECT_EQ(f.rewrite(c, d), "#sec-1-1");
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(Links, UnknownFragmentWarnsAndLinksTheChapter) {
  Fixture f;
  Diagnostics d;
  auto root = parse("see [p](00.md#nowhere)\n");
  EXPECT_EQ(f.rewrite(root, d), "preface.xhtml");
  ASSERT_EQ(d.warning_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 1);
  EXPECT_EQ(d.all()[0].loc.col, 5);
}

TEST(Links, UnknownFragmentInTheSameChapterKeepsTheText) {
  Fixture f;
  Diagnostics d;
  auto root = parse("[here](#nowhere)\n");
  EXPECT_EQ(f.rewrite(root, d), "<none>");
  EXPECT_EQ(d.warning_count(), 1u);
  EXPECT_EQ(doc::plain_text(root), "here");
}

TEST(Links, RepositoryFilesBecomeAbsoluteAtTheCommit) {
  Fixture f;
  Diagnostics d;
  auto root = parse("[r](../calculations/results/x.md#top)\n");
  EXPECT_EQ(f.rewrite(root, d), "https://example.org/o/b/blob/abc123/calculations/results/x.md#top");
  auto spaced = parse("[r](<../results/a b.md>)\n");
  EXPECT_EQ(f.rewrite(spaced, d), "https://example.org/o/b/blob/abc123/results/a%20b.md");
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(Links, WithoutRepositoryUrlRepositoryLinksAreTextWithAWarning) {
  Fixture f;
  f.a.repository_blob.clear();
  Diagnostics d;
  auto root = parse("[r](../calculations/x.md)\n");
  EXPECT_EQ(f.rewrite(root, d), "<none>");
  EXPECT_EQ(d.warning_count(), 1u);
}

TEST(Links, ExternalLinksAreKept) {
  Fixture f;
  Diagnostics d;
  auto root = parse("[w](https://example.org/a?b=1) [m](mailto:a@example.org)\n");
  EXPECT_EQ(f.rewrite(root, d), "https://example.org/a?b=1");
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(Images, RemoteImageIsAnError) {
  Fixture f;
  Diagnostics d;
  auto root = parse("![x](https://example.org/x.png)\n");
  rewrite_links(root, f.a.chapters[1], f.a, d);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 1);
}

TEST(Images, LocalImagesGetTheirHrefInTheEpub) {
  Fixture f;
  f.a.images["/book/manuscripts/img/a.pdf"] = "img/a.png";
  Diagnostics d;
  auto root = parse("![x](img/a.pdf)\n");
  rewrite_links(root, f.a.chapters[1], f.a, d);
  EXPECT_EQ(first_link_url(root, doc::Kind::Image), "img/a.png");
}

TEST(Links, SchemesAreRecognised) {
  EXPECT_TRUE(has_scheme("https://x"));
  EXPECT_TRUE(has_scheme("mailto:a@b"));
  EXPECT_FALSE(has_scheme("a/b:c"));
  EXPECT_FALSE(has_scheme("../x.md"));
  EXPECT_FALSE(has_scheme(":x"));
}

}  // namespace
}  // namespace bb::epub
