// The package and navigation documents: what a reading system reads before any chapter.
#include <pugixml.hpp>

#include "epub/package.hpp"
#include "test_support.hpp"

namespace bb::epub {
namespace {

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  auto r = doc.load_string(xml.c_str());
  EXPECT_TRUE(r) << r.description() << "\n" << xml;
  return doc;
}

PackageDocument sample_package() {
  PackageDocument p;
  p.metadata = {identifier_for("https://example.org/book#en"),
                "A Book & Its Title",
                "The Subtitle",
                {"First Author", "Second Author"},
                "en",
                "© 2026 Someone",
                1767323045};
  p.manifest = {{"nav", "nav.xhtml", "application/xhtml+xml", "nav"},
                {"c-ch01", "ch01.xhtml", "application/xhtml+xml", "mathml"},
                {"cover-image", "cover-image.png", "image/png", "cover-image"}};
  p.spine = {"nav", "c-ch01"};
  p.cover_image_id = "cover-image";
  return p;
}

TEST(Package, IdentifierIsAStableNameBasedUuid) {
  // Python: uuid.uuid5(uuid.NAMESPACE_URL, "https://example.org/book#en")
  EXPECT_EQ(identifier_for("https://example.org/book#en"), "urn:uuid:a371e046-b21f-5ece-bbd5-1e5841a1b7a7");
  EXPECT_NE(identifier_for("https://example.org/book#en"), identifier_for("https://example.org/book#zh"));
}

TEST(Package, ModifiedIsUtcWithoutFractions) {
  EXPECT_EQ(format_modified(1767323045), "2026-01-02T03:04:05Z");
  EXPECT_EQ(format_modified(0), "1970-01-01T00:00:00Z");
}

TEST(Package, MetadataHasEverythingReadersShow) {
  auto doc = parse(package_document(sample_package()));
  auto package = doc.child("package");
  EXPECT_STREQ(package.attribute("version").value(), "3.0");
  std::string uid = package.attribute("unique-identifier").value();
  auto meta = package.child("metadata");
  EXPECT_EQ(std::string(meta.find_child_by_attribute("dc:identifier", "id", uid.c_str()).text().get()),
            "urn:uuid:a371e046-b21f-5ece-bbd5-1e5841a1b7a7");
  EXPECT_STREQ(meta.find_child_by_attribute("dc:title", "id", "title").text().get(), "A Book & Its Title");
  EXPECT_STREQ(meta.find_child_by_attribute("dc:title", "id", "subtitle").text().get(), "The Subtitle");
  EXPECT_STREQ(meta.find_child_by_attribute("meta", "refines", "#subtitle").text().get(), "subtitle");
  EXPECT_STREQ(meta.find_child_by_attribute("meta", "refines", "#title").text().get(), "main");
  int creators = 0;
  for (auto c : meta.children("dc:creator")) {
    ++creators;
    std::string refines = std::string("#") + c.attribute("id").value();
    EXPECT_STREQ(meta.find_child_by_attribute("meta", "refines", refines.c_str()).text().get(), "aut");
  }
  EXPECT_EQ(creators, 2);
  EXPECT_STREQ(meta.child("dc:language").text().get(), "en");
  EXPECT_STREQ(meta.child("dc:rights").text().get(), "© 2026 Someone");
  EXPECT_STREQ(meta.find_child_by_attribute("meta", "property", "dcterms:modified").text().get(),
               "2026-01-02T03:04:05Z");
  EXPECT_STREQ(meta.find_child_by_attribute("meta", "name", "cover").attribute("content").value(),
               "cover-image");
}

TEST(Package, ManifestAndSpineKeepOrderAndProperties) {
  auto doc = parse(package_document(sample_package()));
  auto package = doc.child("package");
  std::vector<std::string> ids;
  for (auto item : package.child("manifest").children("item")) ids.push_back(item.attribute("id").value());
  EXPECT_EQ(ids, (std::vector<std::string>{"nav", "c-ch01", "cover-image"}));
  auto manifest = package.child("manifest");
  EXPECT_STREQ(manifest.find_child_by_attribute("item", "id", "c-ch01").attribute("properties").value(),
               "mathml");
  EXPECT_FALSE(manifest.find_child_by_attribute("item", "id", "nav").attribute("properties").empty());
  std::vector<std::string> spine;
  for (auto ref : package.child("spine").children("itemref")) spine.push_back(ref.attribute("idref").value());
  EXPECT_EQ(spine, (std::vector<std::string>{"nav", "c-ch01"}));
}

TEST(Package, NoSubtitleRightsOrCoverWhenThereAreNone) {
  PackageDocument p = sample_package();
  p.metadata.subtitle.clear();
  p.metadata.rights.clear();
  p.cover_image_id.clear();
  auto doc = parse(package_document(p));
  auto meta = doc.child("package").child("metadata");
  EXPECT_FALSE(meta.find_child_by_attribute("dc:title", "id", "subtitle"));
  EXPECT_FALSE(meta.child("dc:rights"));
  EXPECT_FALSE(meta.find_child_by_attribute("meta", "name", "cover"));
}

// The PDF the page list follows is named as the source of pagination, in the form epubcheck 4.2.6
// accepts; without a page list there is no such claim.
TEST(Package, PageSourceOnlyWithAPageList) {
  PackageDocument p = sample_package();
  auto meta = parse(package_document(p));
  EXPECT_FALSE(meta.child("package").child("metadata").child("dc:source"));
  p.page_source = "book-en.pdf";
  auto doc = parse(package_document(p));
  auto m = doc.child("package").child("metadata");
  EXPECT_STREQ(m.child("dc:source").text().get(), "book-en.pdf");
  std::string refines = std::string("#") + m.child("dc:source").attribute("id").value();
  EXPECT_STREQ(m.find_child_by_attribute("meta", "refines", refines.c_str()).text().get(), "pagination");
}

TEST(Package, ContainerPointsAtThePackage) {
  auto doc = parse(container_document("EPUB/package.opf"));
  auto rootfile = doc.child("container").child("rootfiles").child("rootfile");
  EXPECT_STREQ(rootfile.attribute("full-path").value(), "EPUB/package.opf");
  EXPECT_STREQ(rootfile.attribute("media-type").value(), "application/oebps-package+xml");
}

TEST(Nav, ChaptersWithNestedSectionsAndLandmarks) {
  NavDocument nav{"zh-Hans", "书 <名>", "目录", "导览", "book.css", {}, {}, {}, {}};
  nav.toc.push_back({"前言", "preface.xhtml", {}});
  nav.toc.push_back({"第 1 章 带宽",
                     "ch01.xhtml",
                     {{"1.1 读一次权重", "ch01.xhtml#sec-1-1", {{"1.1.1 小节", "ch01.xhtml#sec-1-1-1", {}}}},
                      {"1.2 再读", "ch01.xhtml#sec-1-2", {}}}});
  nav.landmarks = {{"toc", "目录", "nav.xhtml#toc"}, {"bodymatter", "第 1 章 带宽", "ch01.xhtml"}};
  auto doc = parse(nav_document(nav));
  auto html = doc.child("html");
  EXPECT_STREQ(html.attribute("lang").value(), "zh-Hans");
  EXPECT_STREQ(html.attribute("xml:lang").value(), "zh-Hans");
  EXPECT_STREQ(html.child("head").child("title").text().get(), "书 <名>");
  auto toc = html.child("body").find_child_by_attribute("nav", "epub:type", "toc");
  ASSERT_TRUE(toc);
  EXPECT_STREQ(toc.child("h1").text().get(), "目录");
  auto chapters = toc.child("ol");
  auto ch01 = chapters.first_child().next_sibling();
  EXPECT_STREQ(ch01.child("a").attribute("href").value(), "ch01.xhtml");
  EXPECT_STREQ(ch01.child("a").text().get(), "第 1 章 带宽");
  auto sec = ch01.child("ol").first_child();
  EXPECT_STREQ(sec.child("a").attribute("href").value(), "ch01.xhtml#sec-1-1");
  EXPECT_STREQ(sec.child("ol").child("li").child("a").attribute("href").value(), "ch01.xhtml#sec-1-1-1");
  EXPECT_STREQ(ch01.child("ol").last_child().child("a").text().get(), "1.2 再读");

  auto landmarks = html.child("body").find_child_by_attribute("nav", "epub:type", "landmarks");
  ASSERT_TRUE(landmarks);
  std::vector<std::string> types;
  for (auto li : landmarks.child("ol").children("li"))
    types.push_back(li.child("a").attribute("epub:type").value());
  EXPECT_EQ(types, (std::vector<std::string>{"toc", "bodymatter"}));
  EXPECT_FALSE(html.child("body").find_child_by_attribute("nav", "epub:type", "page-list"));
}

// The print pages: a hidden page-list in reading order, each entry at its pagebreak marker.
TEST(Nav, PageListWhenThereArePrintPages) {
  NavDocument nav{"en", "Book", "Contents", "Landmarks", "book.css", {}, {}, "Pages", {}};
  nav.toc.push_back({"Chapter 1", "ch01.xhtml", {}});
  nav.pages = {
      {"iii", "preface.xhtml#page-iii", {}}, {"1", "ch01.xhtml#page-1", {}}, {"2", "ch01.xhtml#page-2", {}}};
  auto doc = parse(nav_document(nav));
  auto list = doc.child("html").child("body").find_child_by_attribute("nav", "epub:type", "page-list");
  ASSERT_TRUE(list);
  EXPECT_TRUE(list.attribute("hidden"));
  EXPECT_STREQ(list.child("h2").text().get(), "Pages");
  std::vector<std::string> pages;
  for (auto li : list.child("ol").children("li"))
    pages.push_back(std::string(li.child("a").text().get()) + " " + li.child("a").attribute("href").value());
  EXPECT_EQ(pages, (std::vector<std::string>{"iii preface.xhtml#page-iii", "1 ch01.xhtml#page-1",
                                             "2 ch01.xhtml#page-2"}));
}

}  // namespace
}  // namespace bb::epub
