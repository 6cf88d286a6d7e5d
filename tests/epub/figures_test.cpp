// Figures: a missing image or a Git LFS pointer is an error at the manuscript line; PDFs become PNGs
// 1400 px wide, once, in the content-addressed cache the site shares.
#include "figures/figures.hpp"
#include "test_support.hpp"

namespace bb::figures {
namespace {

namespace fs = std::filesystem;

fs::path epub_fixtures() {
  return BOOKBUILD_EPUB_FIXTURES;
}

using TempDir = test::TempDir;

unsigned png_width(const std::string& png) {
  // The IHDR chunk follows the 8-byte signature and the chunk's length and type: width at 16..19.
  auto b = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(png[i])); };
  return b(16) << 24 | b(17) << 16 | b(18) << 8 | b(19);
}

TEST(Figures, MissingImageIsAnErrorAtTheManuscriptLine) {
  TempDir t;
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto r = cache.prepare({t.path / "nope.png", {"chapter.md", 12, 3}}, d);
  EXPECT_FALSE(r);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 12);
  EXPECT_NE(d.all()[0].message.find("does not exist"), std::string::npos);
}

TEST(Figures, LfsPointerIsAnError) {
  TempDir t;
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto r = cache.prepare({epub_fixtures() / "lfs-pointer.png", {"chapter.md", 7, 1}}, d);
  EXPECT_FALSE(r);
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.all()[0].loc.line, 7);
  EXPECT_NE(d.all()[0].message.find("Git LFS"), std::string::npos);
}

TEST(Figures, UnsupportedFormatIsAnError) {
  TempDir t;
  test::write_file(t.path / "x.bmp", "BM");
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  EXPECT_FALSE(cache.prepare({t.path / "x.bmp", {"c.md", 1, 1}}, d));
  EXPECT_EQ(d.error_count(), 1u);
}

TEST(Figures, SvgAndPngAreShippedAsTheyAre) {
  Diagnostics d;
  FigureCache cache("/nonexistent-cache");
  fs::path svg = fs::path(BOOKBUILD_FIXTURES) / "books/mini/manuscripts/img/bw.svg";
  auto r = cache.prepare({svg, {}}, d);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->file, svg);
  EXPECT_EQ(r->media_type, "image/svg+xml");
  EXPECT_EQ(d.all().size(), 0u);
}

TEST(Figures, PdfIsRenderedToAPngOnceAndCachedByContent) {
  TempDir t;
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto r = cache.prepare({epub_fixtures() / "box.pdf", {"c.md", 1, 1}}, d);
  ASSERT_TRUE(r) << format_diagnostic(d.all().at(0));
  EXPECT_EQ(r->media_type, "image/png");
  EXPECT_EQ(r->file.parent_path(), t.path / "cache");
  EXPECT_EQ(r->file.filename().string().size(), 64u + 4u) << "named by its SHA-256";
  std::string png = test::read_file(r->file);
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(png_width(png), static_cast<unsigned>(kRenderWidth));

  // A second build takes the cached file (here marked, to tell it apart from a new rendering).
  test::write_file(r->file, "cached");
  auto again = cache.prepare({epub_fixtures() / "box.pdf", {"c.md", 1, 1}}, d);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->file, r->file);
  EXPECT_EQ(test::read_file(again->file), "cached");

  // The same PDF elsewhere shares the entry; different content gets its own.
  test::write_file(t.path / "copy.pdf", test::read_file(epub_fixtures() / "box.pdf"));
  EXPECT_EQ(cache.prepare({t.path / "copy.pdf", {}}, d)->file, r->file);
}

TEST(Figures, PrepareAllKeepsRequestOrderAndReportsEveryProblem) {
  TempDir t;
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  std::vector<Request> requests = {{epub_fixtures() / "box.pdf", {"c.md", 1, 1}},
                                   {t.path / "missing-1.png", {"c.md", 2, 1}},
                                   {t.path / "missing-2.png", {"c.md", 3, 1}}};
  auto r = cache.prepare_all(requests, d);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(r[0]);
  EXPECT_FALSE(r[1]);
  EXPECT_FALSE(r[2]);
  EXPECT_EQ(d.error_count(), 2u);
}

TEST(Figures, LfsPointerRecognisedByItsFirstLine) {
  EXPECT_TRUE(is_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:x\n"));
  EXPECT_FALSE(is_lfs_pointer("\x89PNG\r\n"));
}

}  // namespace
}  // namespace bb::figures
