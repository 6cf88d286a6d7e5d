// Figures: a missing image or a Git LFS pointer is an error at the manuscript line; PDFs become PNGs
// 1400 px wide, once, in the content-addressed cache the site shares.
#include "figures/figures.hpp"

#include <chrono>

#include "figures/memo.hpp"
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

// The memo of earlier runs (memo.hpp): a later process reads back what this one learnt, for the very
// files it learnt it from, and nothing else.
TEST(FigureMemo, IsReadBackForTheUnchangedFileOnly) {
  TempDir t;
  fs::path pdf = t.path / "box.pdf";
  test::write_file(pdf, test::read_file(epub_fixtures() / "box.pdf"));
  // A file written a moment ago is not remembered (its time could stay the same through another edit).
  fs::last_write_time(pdf, fs::last_write_time(pdf) - std::chrono::hours(1));
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto r = cache.prepare_all({{pdf, {"c.md", 1, 1}}}, d);
  ASSERT_TRUE(r.at(0));
  std::string bytes = test::read_file(t.path / "cache" / "memo.bin");
  Memo later(t.path / "cache" / "memo.bin", Memo::current_stamp(), bytes);
  auto id = identify(pdf);
  ASSERT_TRUE(id);
  EXPECT_EQ(later.find(pdf, Memo::kValid, *id), std::optional<std::string>(""));
  EXPECT_EQ(later.find(pdf, "pdf-to-png width=" + std::to_string(kRenderWidth), *id),
            std::optional<std::string>(r[0]->file.stem().string()));
  // Another file, or the same file with another identity, is unknown.
  EXPECT_FALSE(later.find(t.path / "other.pdf", Memo::kValid, *id));
  FileId touched = *id;
  ++touched.mtime_ns;
  EXPECT_FALSE(later.find(pdf, Memo::kValid, touched));
  // Written by another bookbuild executable: ignored.
  EXPECT_EQ(Memo(t.path / "m", "another stamp", bytes).size(), 0u);
}

TEST(FigureMemo, ADamagedFileIsIgnored) {
  TempDir t;
  const std::string stamp = "test stamp";
  Memo m(t.path / "m", stamp, "");
  const FileId id{1, 2, 3, 4};
  Memo fresh(t.path / "m", stamp, "");
  auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  fresh.put("/book/new.pdf", Memo::kValid, FileId{1, 2, 3, now}, "");
  EXPECT_EQ(fresh.size(), 0u) << "a file modified just now is not remembered";
  m.put("/book/a.pdf", "pdf-to-png width=1400", id, std::string(64, 'a'));
  m.put("/book/a.pdf", Memo::kValid, id, "");
  // Only "" or an entry name is held: a value read back can never name another path.
  m.put("/book/b.pdf", "pdf-to-png width=1400", id, "../../etc/passwd");
  ASSERT_EQ(m.size(), 2u);
  const std::string good = m.serialize();
  EXPECT_EQ(Memo(t.path / "m", stamp, good).size(), 2u);
  for (std::size_t at : {std::size_t{0}, std::size_t{9}, good.size() / 2, good.size() - 1}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    EXPECT_EQ(Memo(t.path / "m", stamp, bad).size(), 0u) << "byte " << at;
  }
  EXPECT_EQ(Memo(t.path / "m", stamp, good.substr(0, good.size() - 1)).size(), 0u);
  EXPECT_EQ(Memo(t.path / "m", stamp, good + "x").size(), 0u);
  EXPECT_EQ(Memo(t.path / "m", stamp, "").size(), 0u);
}

TEST(FigureMemo, AChangedImageIsCheckedAgain) {
  TempDir t;
  fs::path svg = t.path / "a.svg";
  test::write_file(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>");
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  ASSERT_TRUE(cache.prepare_all({{svg, {"c.md", 1, 1}}}, d).at(0));
  test::write_file(svg, "not an image any more");
  EXPECT_FALSE(cache.prepare_all({{svg, {"c.md", 2, 1}}}, d).at(0));
  ASSERT_EQ(d.error_count(), 1u);
  EXPECT_NE(d.all()[0].message.find("is not an SVG"), std::string::npos);
}

// A clean SVG's verdict is remembered (it is shipped as it is, unread, on the next build); the same
// file given a script afterwards must be cleaned again, not shipped on the old verdict.
TEST(FigureMemo, AnSvgRememberedCleanIsCleanedAgainOnceChanged) {
  TempDir t;
  fs::path svg = t.path / "a.svg";
  const auto an_hour_ago = [&] {
    fs::last_write_time(svg, fs::last_write_time(svg) - std::chrono::hours(1));
  };
  test::write_file(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>");
  an_hour_ago();
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto clean = cache.prepare_all({{svg, {"c.md", 1, 1}}}, d).at(0);
  ASSERT_TRUE(clean);
  EXPECT_EQ(clean->file, svg);
  EXPECT_EQ(Memo::of(t.path / "cache").size(), 2u);  // valid, and clean as it is
  test::write_file(
      svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"><script>x()</script></svg>");
  an_hour_ago();
  auto cleaned = cache.prepare_all({{svg, {"c.md", 2, 1}}}, d).at(0);
  ASSERT_TRUE(cleaned);
  EXPECT_NE(cleaned->file, svg);
  EXPECT_EQ(test::read_file(cleaned->file).find("script"), std::string::npos);
  ASSERT_EQ(d.warning_count(), 1u);
  EXPECT_NE(d.all()[0].message.find("dropped <script>"), std::string::npos);
}

TEST(FigureMemo, AMissingCacheEntryIsMadeAgain) {
  TempDir t;
  fs::path pdf = t.path / "box.pdf";
  test::write_file(pdf, test::read_file(epub_fixtures() / "box.pdf"));
  FigureCache cache(t.path / "cache");
  Diagnostics d;
  auto first = cache.prepare_all({{pdf, {}}}, d).at(0);
  ASSERT_TRUE(first);
  fs::remove(first->file);
  auto again = cache.prepare_all({{pdf, {}}}, d).at(0);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->file, first->file);
  EXPECT_TRUE(fs::is_regular_file(again->file));
  EXPECT_EQ(d.error_count(), 0u);
}

TEST(Figures, LfsPointerRecognisedByItsFirstLine) {
  EXPECT_TRUE(is_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:x\n"));
  EXPECT_FALSE(is_lfs_pointer("\x89PNG\r\n"));
}

}  // namespace
}  // namespace bb::figures
