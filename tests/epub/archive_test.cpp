// The written archive read back: container rules, manifest, well-formed XHTML with lang and xml:lang,
// links that resolve, byte-identical rebuilds; `check epub` finds what breaks a reader.
#include <pugixml.hpp>

#include "book/book.hpp"
#include "check/epub_check.hpp"
#include "epub/addressing.hpp"
#include "epub/epub.hpp"
#include "epub/zip.hpp"
#include "filters/pipeline.hpp"
#include "test_support.hpp"

namespace bb::epub {
namespace {

namespace fs = std::filesystem;

fs::path fixture_book() {
  return fs::path(BOOKBUILD_EPUB_FIXTURES) / "book";
}

struct Built {
  std::string bytes;
  std::vector<Diagnostic> diags;
};

fs::path cache_dir() {
  return fs::temp_directory_path() / ("bb-epub-test-cache-" + std::to_string(::getpid()));
}

// The figure cache the builds of this file share, removed when the tests end.
class CacheCleanup : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(cache_dir()); }
};
const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new CacheCleanup);

Built build(const std::string& edition, MathRenderer math = tex_as_text, fs::path cover = {}) {
  Diagnostics d;
  auto config = book::load_config(fixture_book(), d);
  EXPECT_TRUE(config);
  auto b = book::load_book(*config, d, {edition});
  auto resolution = filters::resolve(b, d);
  EpubOptions o;
  o.repository = resolution.repository;
  o.figure_cache = cache_dir();
  o.modified = 1767323045;
  o.math = std::move(math);
  o.cover = std::move(cover);
  auto files = build_files(b, b.editions.at(0), o, d);
  return {zip_files(std::move(files), *o.modified), d.all()};
}

ZipReader open(const std::string& bytes) {
  std::string error;
  auto r = ZipReader::open(bytes, error);
  EXPECT_TRUE(r) << error;
  return std::move(*r);
}

TEST(Archive, ContainerRules) {
  auto built = build("en");
  EXPECT_TRUE(built.diags.empty()) << format_diagnostic(built.diags.at(0));
  const std::string& b = built.bytes;
  // Local header of the first entry: stored (method 0), name "mimetype", no extra field.
  ASSERT_GT(b.size(), 58u);
  EXPECT_EQ(b.substr(0, 4), std::string("PK\x03\x04", 4));
  EXPECT_EQ(b[8], 0);
  EXPECT_EQ(b[28], 0);
  EXPECT_EQ(b[29], 0);
  EXPECT_EQ(b.substr(30, 8), "mimetype");
  EXPECT_EQ(b.substr(38, 20), "application/epub+zip");

  auto zip = open(b);
  ASSERT_GE(zip.entries().size(), 3u);
  EXPECT_EQ(zip.entries()[0].name, "mimetype");
  EXPECT_TRUE(zip.entries()[0].stored);
  EXPECT_EQ(zip.entries()[1].name, "META-INF/container.xml");
  EXPECT_TRUE(zip.contains("EPUB/package.opf"));
}

TEST(Archive, EveryManifestItemIsInTheArchiveAndEveryXhtmlIsWellFormedWithLanguage) {
  auto built = build("zh");
  auto zip = open(built.bytes);
  pugi::xml_document opf;
  ASSERT_TRUE(opf.load_string(zip.read("EPUB/package.opf")->c_str()));
  int xhtml = 0;
  for (auto item : opf.child("package").child("manifest").children("item")) {
    std::string path = std::string("EPUB/") + item.attribute("href").value();
    auto data = zip.read(path);
    ASSERT_TRUE(data) << path;
    if (std::string(item.attribute("media-type").value()) != "application/xhtml+xml") continue;
    ++xhtml;
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_string(data->c_str())) << path;
    EXPECT_STREQ(doc.child("html").attribute("lang").value(), "zh-Hans") << path;
    EXPECT_STREQ(doc.child("html").attribute("xml:lang").value(), "zh-Hans") << path;
  }
  EXPECT_EQ(xhtml, 3);  // nav, preface, ch01
}

TEST(Archive, ChaptersLinkToEachOtherAndTheRepository) {
  auto zip = open(build("en").bytes);
  std::string preface = *zip.read("EPUB/preface.xhtml");
  EXPECT_NE(preface.find("href=\"ch01.xhtml#sec-1-1\""), std::string::npos) << preface;
  EXPECT_NE(preface.find("href=\"https://example.org/owner/links-book/blob/"), std::string::npos);
  EXPECT_NE(preface.find("/results/bandwidth.md\""), std::string::npos);
  std::string ch01 = *zip.read("EPUB/ch01.xhtml");
  EXPECT_NE(ch01.find("epub:type=\"noteref\""), std::string::npos);
  EXPECT_NE(ch01.find("href=\"#fnref-bw-2\""), std::string::npos) << "back-link to each reference";
  EXPECT_NE(ch01.find("src=\"img/box.png\""), std::string::npos) << "the PDF figure as PNG";
  EXPECT_TRUE(zip.contains("EPUB/img/box.png"));
  std::string nav = *zip.read("EPUB/nav.xhtml");
  EXPECT_NE(nav.find("href=\"ch01.xhtml#sec-1-1\""), std::string::npos) << nav;
  EXPECT_NE(nav.find("epub:type=\"landmarks\""), std::string::npos);
}

TEST(Archive, SameSourcesGiveTheSameBytes) {
  EXPECT_EQ(build("en").bytes, build("en").bytes);
}

TEST(Archive, ChaptersWithMathMlDeclareIt) {
  auto mathml = [](const doc::Node& n, Diagnostics&) {
    return MathMarkup{
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" alttext=\"" + n.text + "\"><mi>x</mi></math>",
        true};
  };
  auto zip = open(build("en", mathml).bytes);
  pugi::xml_document opf;
  ASSERT_TRUE(opf.load_string(zip.read("EPUB/package.opf")->c_str()));
  auto manifest = opf.child("package").child("manifest");
  EXPECT_STREQ(manifest.find_child_by_attribute("item", "id", "c-ch01").attribute("properties").value(),
               "mathml");
  EXPECT_STREQ(manifest.find_child_by_attribute("item", "id", "c-preface").attribute("properties").value(),
               "");
}

TEST(Archive, CoverImageHasItsPropertyAndPage) {
  auto built = build("en", tex_as_text, fs::path(BOOKBUILD_EPUB_FIXTURES) / "box.pdf");
  auto zip = open(built.bytes);
  pugi::xml_document opf;
  ASSERT_TRUE(opf.load_string(zip.read("EPUB/package.opf")->c_str()));
  auto manifest = opf.child("package").child("manifest");
  auto cover = manifest.find_child_by_attribute("item", "properties", "cover-image");
  ASSERT_TRUE(cover);
  EXPECT_STREQ(cover.attribute("href").value(), "cover-image.png");
  EXPECT_STREQ(opf.child("package").child("spine").first_child().attribute("idref").value(), "cover");
  Diagnostics d;
  check::check_epub_bytes(built.bytes, "cover.epub", d);
  EXPECT_EQ(d.all().size(), 0u) << format_diagnostic(d.all().at(0));
}

TEST(Archive, CheckEpubFindsNoProblemInAWrittenEpub) {
  Diagnostics d;
  check::check_epub_bytes(build("zh").bytes, "zh.epub", d);
  EXPECT_EQ(d.all().size(), 0u) << format_diagnostic(d.all().at(0));
}

// A small EPUB written by hand, to break one rule at a time.
std::string hand_made(bool stored_mimetype, const std::string& chapter) {
  ZipWriter zip;
  zip.add("mimetype", "application/epub+zip", !stored_mimetype);
  zip.add(
      "META-INF/container.xml",
      "<?xml version=\"1.0\"?><container version=\"1.0\" "
      "xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles><rootfile full-path=\"p.opf\" "
      "media-type=\"application/oebps-package+xml\"/></rootfiles></container>",
      true);
  zip.add(
      "p.opf",
      "<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" "
      "unique-identifier=\"id\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:identifier "
      "id=\"id\">x</dc:identifier><dc:title>t</dc:title><dc:language>en</dc:language><meta "
      "property=\"dcterms:modified\">2026-01-01T00:00:00Z</meta></metadata><manifest><item id=\"c\" "
      "href=\"c.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/></manifest><spine><itemref "
      "idref=\"c\"/></spine></package>",
      true);
  zip.add("c.xhtml", chapter, true);
  return zip.finish(0);
}

const std::string kGoodChapter =
    "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">"
    "<head><title>t</title></head>\n<body><p id=\"a\"><a href=\"#a\">x</a></p></body></html>";

TEST(CheckEpub, AcceptsAMinimalGoodEpub) {
  Diagnostics d;
  check::check_epub_bytes(hand_made(true, kGoodChapter), "x.epub", d);
  EXPECT_EQ(d.all().size(), 0u) << format_diagnostic(d.all().at(0));
}

TEST(CheckEpub, CompressedMimetypeIsAnError) {
  Diagnostics d;
  check::check_epub_bytes(hand_made(false, kGoodChapter), "x.epub", d);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_NE(d.all()[0].message.find("stored"), std::string::npos);
}

TEST(CheckEpub, MalformedXhtmlIsAnErrorWithItsLine) {
  std::string bad = kGoodChapter;
  bad.replace(bad.find("</p>"), 4, "</q>");
  Diagnostics d;
  check::check_epub_bytes(hand_made(true, bad), "x.epub", d);
  ASSERT_GE(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.path, fs::path("x.epub/c.xhtml"));
  EXPECT_EQ(d.all()[0].loc.line, 3);
}

TEST(CheckEpub, UnresolvedFragmentsAndMissingFilesAreErrors) {
  std::string bad = kGoodChapter;
  bad.replace(bad.find("#a"), 2, "#b");
  bad.replace(bad.find("</body>"), 0, "<img src=\"missing.png\" alt=\"\"/>");
  Diagnostics d;
  check::check_epub_bytes(hand_made(true, bad), "x.epub", d);
  ASSERT_EQ(d.error_count(), 2u);
  std::string all = d.all()[0].message + "\n" + d.all()[1].message;
  EXPECT_NE(all.find("no id `b`"), std::string::npos) << all;
  EXPECT_NE(all.find("missing.png"), std::string::npos) << all;
}

TEST(CheckEpub, NotAZipIsAnError) {
  Diagnostics d;
  check::check_epub_bytes("hello", "x.epub", d);
  EXPECT_TRUE(d.has_errors());
}

TEST(Cli, EpubWritesEveryEditionAndCheckEpubAcceptsThem) {
  fs::path out = fs::temp_directory_path() / ("bb-epub-cli-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto r =
      test::run_bookbuild("--book '" + fixture_book().string() + "' --out '" + out.string() + "' epub --all");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "epub" / "links-book-zh.epub"));
  EXPECT_TRUE(fs::exists(out / "epub" / "links-book-en.epub"));
  auto c = test::run_bookbuild("--out '" + out.string() + "' check epub");
  EXPECT_EQ(c.exit_code, 0) << c.err;
  auto one = test::run_bookbuild("--book '" + fixture_book().string() + "' --out '" + out.string() +
                                 "' epub --edition en --name single");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(fs::exists(out / "epub" / "single-en.epub"));
  EXPECT_FALSE(fs::exists(out / "epub" / "single-zh.epub"));
  fs::remove_all(out);
}

TEST(Cli, CheckEpubReportsABrokenFile) {
  fs::path f = fs::temp_directory_path() / ("bb-broken-" + std::to_string(::getpid()) + ".epub");
  test::write_file(f, "not a zip");
  auto r = test::run_bookbuild("check epub --file '" + f.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  fs::remove(f);
}

}  // namespace
}  // namespace bb::epub
