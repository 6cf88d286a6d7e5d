// The print page record: what is read from the .aux, the record file round trip, and that a record
// made for another PDF or other blocks is never used.
#include "pages/page_record.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "output/staging.hpp"
#include "text/digest.hpp"

namespace fs = std::filesystem;
using namespace bb;

namespace {

std::string fixture(const char* name) {
  std::ifstream in(fs::path(BOOKBUILD_PAGES_FIXTURES) / name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder for one test.
fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("bookbuild-pages-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

doc::Node paragraph(const std::string& words) {
  doc::Node p;
  p.kind = doc::Kind::Paragraph;
  doc::Node t;
  t.kind = doc::Kind::Text;
  t.text = words;
  p.children.push_back(t);
  return p;
}

}  // namespace

TEST(PageRecord, BlockIdNamesChapterAndIndex) {
  EXPECT_EQ(pages::block_id("ch04", 12), "ch04.12");
}

// Roman numerals in the front matter are kept as printed; a block shipped out twice (split over a
// page break) keeps its first page; an unclosed or spaced entry is no entry.
TEST(PageRecord, ParsesTheAuxLines) {
  pages::BlockPages expected = {{"ch00.0", "iii"}, {"ch00.1", "iii"}, {"ch00.2", "iv"},
                                {"ch01.0", "1"},   {"ch01.1", "1"},   {"ch01.2", "2"}};
  EXPECT_EQ(pages::parse_aux(fixture("book.aux")), expected);
}

TEST(PageRecord, RoundTripsThroughItsFile) {
  const std::string text = fixture("book.pages");
  auto record = pages::parse_record(text);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->pdf, 0xffU);
  EXPECT_EQ(record->blocks, 0x0123456789abcdefULL);
  EXPECT_EQ(record->pages, pages::parse_aux(fixture("book.aux")));
  EXPECT_EQ(pages::format_record(*record), text);
}

TEST(PageRecord, RejectsADamagedFile) {
  const std::string text = fixture("book.pages");
  EXPECT_FALSE(pages::parse_record(""));
  EXPECT_FALSE(pages::parse_record(text.substr(0, text.size() - 1)));  // cut short
  EXPECT_FALSE(pages::parse_record("bookbuild pages 2" + text.substr(17)));
  EXPECT_FALSE(pages::parse_record(text + "ch01.3\n"));
  EXPECT_FALSE(pages::parse_record("bookbuild pages 1\npdf 0xff\nblocks 0123456789abcdef\n"));
}

TEST(PageRecord, DigestChangesWithTheBlocks) {
  doc::Node root;
  root.kind = doc::Kind::Document;
  root.children = {paragraph("alpha"), paragraph("beta")};
  const auto digest = pages::blocks_digest({{"ch01", &root}});
  EXPECT_EQ(digest, pages::blocks_digest({{"ch01", &root}}));
  EXPECT_NE(digest, pages::blocks_digest({{"ch02", &root}}));
  doc::Node edited = root;
  edited.children[1] = paragraph("gamma");
  EXPECT_NE(digest, pages::blocks_digest({{"ch01", &edited}}));
  edited.children.pop_back();
  EXPECT_NE(digest, pages::blocks_digest({{"ch01", &edited}}));
}

// The record is used only for the PDF it was read beside and the blocks it was made from.
TEST(PageRecord, AStaleRecordIsNeverUsed) {
  const fs::path dir = scratch("stale");
  const fs::path pdf = dir / "book.pdf";
  output::write_file_atomic(pdf, "%PDF-1.5 first");
  pages::PageRecord record{text::checksum64("%PDF-1.5 first"), 42, {{"ch01.0", "1"}}};
  const fs::path file = pages::record_path(dir / ".cache", "en");
  EXPECT_EQ(file, dir / ".cache" / "pdf" / "en.pages");
  pages::save_record(file, record);

  auto valid = pages::valid_record(file, pdf, 42);
  ASSERT_TRUE(valid);
  EXPECT_EQ(valid->pages, record.pages);
  EXPECT_FALSE(pages::valid_record(file, pdf, 43));  // other blocks
  EXPECT_FALSE(pages::valid_record(file, dir / "none.pdf", 42));
  output::write_file_atomic(pdf, "%PDF-1.5 second");  // another PDF
  EXPECT_FALSE(pages::valid_record(file, pdf, 42));
  fs::remove_all(dir);
}

// Given the chapters instead of their digest, the record is checked against the digest of their blocks.
TEST(PageRecord, ARecordIsCheckedAgainstTheChaptersGiven) {
  const fs::path dir = scratch("chapters");
  const fs::path pdf = dir / "book.pdf";
  output::write_file_atomic(pdf, "%PDF-1.5");
  doc::Node root;
  root.kind = doc::Kind::Document;
  root.children = {paragraph("alpha")};
  const std::vector<std::pair<std::string, const doc::Node*>> chapters{{"ch01", &root}},
      other{{"ch02", &root}};
  const fs::path file = pages::record_path(dir / ".cache", "en");
  EXPECT_FALSE(pages::valid_record(file, pdf, chapters));  // no record yet
  pages::save_record(file, {text::checksum64("%PDF-1.5"), pages::blocks_digest(chapters), {{"ch01.0", "1"}}});
  EXPECT_TRUE(pages::valid_record(file, pdf, chapters));
  EXPECT_FALSE(pages::valid_record(file, pdf, other));
  fs::remove_all(dir);
}
