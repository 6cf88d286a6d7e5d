// The EPUB's addressing maps the destinations the link resolver decided to EPUB hrefs: chapter files
// and fragments, images under the package, and nothing for chapters the EPUB does not have.
#include "epub/addressing.hpp"
#include "test_support.hpp"

namespace bb::epub {
namespace {

doc::Node link_to(const std::string& chapter, const std::string& target) {
  doc::Node n(doc::Kind::Link);
  n.rare().url = "ignored.md";
  n.set_attr("dest", "chapter");
  n.set_attr("chapter", chapter);
  n.set_attr("target", target);
  doc::Node t(doc::Kind::Text);
  t.text = "text";
  n.children.push_back(t);
  return n;
}

struct Fixture {
  Addressing a;
  Fixture() {
    a.chapters.push_back({"preface", "preface.xhtml"});
    a.chapters.push_back({"ch01", "ch01.xhtml"});
    a.images["manuscripts/figures/a.svg"] = "figures/a.svg";
  }
  doc::Node rewrite(doc::Node n, std::size_t self = 1, Diagnostics* diags = nullptr) {
    doc::Node root(doc::Kind::Document);
    root.children.push_back(std::move(n));
    Diagnostics local;
    rewrite_links(root, a.chapters[self], a, diags ? *diags : local);
    return root.children[0];
  }
};

TEST(EpubAddressing, ChapterDestinationsBecomeFileAndFragment) {
  Fixture f;
  EXPECT_EQ(f.rewrite(link_to("preface", "intro")).url(), "preface.xhtml#intro");
  EXPECT_EQ(f.rewrite(link_to("preface", "preface")).url(), "preface.xhtml") << "the chapter start";
  EXPECT_EQ(f.rewrite(link_to("ch01", "fig-1-1")).url(), "#fig-1-1") << "within the same file";
  EXPECT_EQ(f.rewrite(link_to("ch01", "ch01")).url(), "ch01.xhtml");
}

TEST(EpubAddressing, CrossReferencesBecomeLinks) {
  Fixture f;
  doc::Node ref = link_to("preface", "intro");
  ref.kind = doc::Kind::CrossRef;
  auto out = f.rewrite(ref);
  EXPECT_EQ(out.kind, doc::Kind::Link);
  EXPECT_EQ(out.url(), "preface.xhtml#intro");
}

TEST(EpubAddressing, AChapterTheEditionLacksKeepsOnlyTheText) {
  Fixture f;
  auto out = f.rewrite(link_to("ch09", "sec-9-1"));
  EXPECT_EQ(out.kind, doc::Kind::Span);
  EXPECT_TRUE(out.url().empty());
  EXPECT_EQ(doc::plain_text(out.children), "text");
}

TEST(EpubAddressing, ImagesMapToPackageFilesAndRemoteImagesAreErrors) {
  Fixture f;
  doc::Node img(doc::Kind::Image);
  img.rare().url = "figures/a.svg";
  img.set_attr("dest", "asset");
  img.set_attr("asset", "manuscripts/figures/a.svg");
  EXPECT_EQ(f.rewrite(img).url(), "figures/a.svg");
  doc::Node remote(doc::Kind::Image);
  remote.rare().url = "https://example.org/a.png";
  remote.set_attr("dest", "url");
  Diagnostics d;
  f.rewrite(remote, 1, &d);
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_NE(d.all()[0].message.find("an EPUB must carry its images"), std::string::npos);
}

}  // namespace
}  // namespace bb::epub
