// The written archive read back: container rules, manifest, well-formed XHTML with lang and xml:lang,
// links that resolve, byte-identical rebuilds; `check epub` finds what breaks a reader.
#include <fcntl.h>
#include <sys/stat.h>

#include <pugixml.hpp>

#include <fstream>

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

Built build_at(const fs::path& root, const std::string& edition, MathRenderer math = tex_as_text,
               fs::path cover = {}) {
  Diagnostics d;
  auto config = book::load_config(root, d);
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

Built build(const std::string& edition, MathRenderer math = tex_as_text, fs::path cover = {}) {
  return build_at(fixture_book(), edition, std::move(math), std::move(cover));
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

// An image outside the edition folder is renamed with a hash of its path in the book, not on disk:
// the same book checked out in two folders gives the same EPUB.
TEST(Archive, TheSameBookInAnotherFolderGivesTheSameBytes) {
  test::TempDir dir("bb-epub-folders");
  std::vector<std::string> bytes;
  for (const fs::path& root : {dir.path / "one", dir.path / "elsewhere" / "two"}) {
    fs::create_directories(root);
    fs::copy(fixture_book(), root, fs::copy_options::recursive);
    std::ofstream(root / "book-en" / "chapter01.md", std::ios::app)
        << "\n![The source edition's figure](../manuscripts/img/bw.svg)\n";
    Built built = build_at(root, "en");
    ZipReader zip = open(built.bytes);
    bool renamed = false;
    for (const auto& e : zip.entries()) renamed |= e.name.rfind("EPUB/manuscripts/img/bw-", 0) == 0;
    EXPECT_TRUE(renamed) << "the figure outside the edition folder was not renamed";
    bytes.push_back(std::move(built.bytes));
  }
  EXPECT_EQ(bytes[0], bytes[1]);
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

// --- Reusing an earlier archive's deflate streams (epub.cpp, "The earlier archive") ---

std::uint32_t crc32_of(std::string_view s) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

void put_le(std::string& out, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// A one-entry ZIP whose deflate stream is a single stored block (RFC 1951, 3.2.4): valid, and never
// what zlib makes of repetitive text, so a copy of it is told apart from a fresh deflate.
std::string zip_with_stored_block(const std::string& name, const std::string& content) {
  std::string stream = "\x01";
  put_le(stream, static_cast<std::uint32_t>(content.size()), 2);
  put_le(stream, static_cast<std::uint32_t>(~content.size() & 0xFFFF), 2);
  stream += content;
  const std::uint32_t crc = crc32_of(content);
  std::string zip = "PK\x03\x04";
  put_le(zip, 20, 2), put_le(zip, 0, 2), put_le(zip, 8, 2), put_le(zip, 0, 4), put_le(zip, crc, 4);
  put_le(zip, static_cast<std::uint32_t>(stream.size()), 4),
      put_le(zip, static_cast<std::uint32_t>(content.size()), 4);
  put_le(zip, static_cast<std::uint32_t>(name.size()), 2), put_le(zip, 0, 2);
  zip += name + stream;
  const auto dir = static_cast<std::uint32_t>(zip.size());
  zip += "PK\x01\x02";
  put_le(zip, 20, 2), put_le(zip, 20, 2), put_le(zip, 0, 2), put_le(zip, 8, 2), put_le(zip, 0, 4);
  put_le(zip, crc, 4), put_le(zip, static_cast<std::uint32_t>(stream.size()), 4);
  put_le(zip, static_cast<std::uint32_t>(content.size()), 4),
      put_le(zip, static_cast<std::uint32_t>(name.size()), 2);
  put_le(zip, 0, 2), put_le(zip, 0, 2), put_le(zip, 0, 2), put_le(zip, 0, 2), put_le(zip, 0, 4),
      put_le(zip, 0, 4);
  zip += name;
  const auto dir_size = static_cast<std::uint32_t>(zip.size()) - dir;
  zip += "PK\x05\x06";
  put_le(zip, 0, 2), put_le(zip, 0, 2), put_le(zip, 1, 2), put_le(zip, 1, 2), put_le(zip, dir_size, 4);
  put_le(zip, dir, 4), put_le(zip, 0, 2);
  return zip;
}

// The compressed size the central directory gives the entry `name`.
std::uint32_t compressed_size(const std::string& zip, const std::string& name) {
  for (std::size_t at = zip.find("PK\x01\x02"); at != std::string::npos;
       at = zip.find("PK\x01\x02", at + 4)) {
    auto u = [&](std::size_t off, int bytes) {
      std::uint32_t v = 0;
      for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(zip[at + off + i]);
      return v;
    };
    if (zip.compare(at + 46, u(28, 2), name) == 0) return u(20, 4);
  }
  ADD_FAILURE() << "no entry " << name;
  return 0;
}

std::string zip_one(const std::string& content, bool unchanged, const std::string& earlier) {
  ZipWriter zip;
  zip.add("a.txt", content, true, unchanged);
  return zip.finish(0, earlier);
}

TEST(ZipWriter, AnUnchangedEntryKeepsTheEarlierStreamWhenItsSizeAndCrcAgree) {
  const std::string text(4000, 'x');
  const std::string earlier = zip_with_stored_block("a.txt", text);
  ASSERT_TRUE(open(earlier).read("a.txt")) << "the hand-made archive must be valid";
  // Marked unchanged, same bytes: the stored block is copied (5 bytes of header + the text).
  const std::string reused = zip_one(text, true, earlier);
  EXPECT_EQ(compressed_size(reused, "a.txt"), text.size() + 5);
  EXPECT_EQ(open(reused).read("a.txt"), text);
  // Not marked: deflated afresh, whatever the earlier archive holds.
  EXPECT_LT(compressed_size(zip_one(text, false, earlier), "a.txt"), 100u);
  // Marked, but the bytes differ (same size, another CRC-32): deflated afresh, and read back right.
  std::string other = text;
  other[10] = 'y';
  const std::string fresh = zip_one(other, true, earlier);
  EXPECT_LT(compressed_size(fresh, "a.txt"), 100u);
  EXPECT_EQ(open(fresh).read("a.txt"), other);
  // Another name: nothing to reuse.
  ZipWriter renamed;
  renamed.add("b.txt", text, true, true);
  EXPECT_LT(compressed_size(renamed.finish(0, earlier), "b.txt"), 100u);
}

TEST(ZipWriter, AnyEarlierArchiveIsSafeToOffer) {
  const std::string text = "chapter text, chapter text, chapter text";
  const std::string good = zip_with_stored_block("a.txt", text);
  const std::string clean = zip_one(text, false, {});
  // Cut short anywhere (the end record is gone or points past the end) or changed in one byte of its
  // headers: never a crash or a read out of bounds (the sanitizer build runs this), always a
  // consistent archive; where the CRC-32 still agrees the stream is reused, else deflated.
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::string out = zip_one(text, true, good.substr(0, n));
    EXPECT_EQ(out, clean) << "cut at " << n;
  }
  const std::size_t stream_end = good.find("PK\x01\x02");
  for (std::size_t at = 0; at < good.size(); ++at) {
    if (at >= 30 + 5 && at < stream_end) continue;  // the text itself: a changed copy would be reused
    for (unsigned char flip : {0x01, 0x80, 0xFF}) {
      std::string bad = good;
      bad[at] = static_cast<char>(static_cast<unsigned char>(bad[at]) ^ flip);
      const std::string out = zip_one(text, true, bad);
      std::string error;
      auto r = ZipReader::open(out, error);
      ASSERT_TRUE(r) << "byte " << at << ": " << error;
      EXPECT_EQ(r->read("a.txt"), text) << "byte " << at << " ^ " << int(flip);
    }
  }
}

// The CLI's warm EPUB build: the same bytes as a clean build, an unchanged file left alone, a changed
// book or a changed EPUB file never mistaken for the earlier one.
TEST(Cli, AWarmEpubBuildGivesTheCleanBuildsBytes) {
  const fs::path root = fs::temp_directory_path() / ("bb-epub-warm-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path book = root / "book", warm = root / "warm", clean = root / "clean";
  fs::create_directories(root);
  fs::copy(fixture_book(), book, fs::copy_options::recursive);
  // The dynamic loader's log (LD_DEBUG=files, on stderr) says whether the ZIP module was loaded.
  bool zip_module_loaded = false;
  auto build = [&](const fs::path& out) {
    auto r = test::run_command("LD_DEBUG=files '" BOOKBUILD_EXE "' --book '" + book.string() + "' --out '" +
                               out.string() + "' -q epub --edition en");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    zip_module_loaded = r.err.find("bookbuild_zip") != std::string::npos;
    return out / "epub" / "links-book-en.epub";
  };
  auto stat_of = [](const fs::path& f) {
    struct stat st {};
    EXPECT_EQ(::stat(f.c_str(), &st), 0);
    return std::pair(st.st_ino, st.st_mtim.tv_nsec + st.st_mtim.tv_sec * 1'000'000'000LL);
  };
  const fs::path epub = build(warm);
  ASSERT_TRUE(fs::exists(warm / ".cache" / "epub" / "links-book-en.epub.id"));
  const std::string first = test::read_file(epub);
  const auto identity = stat_of(epub);
  EXPECT_TRUE(zip_module_loaded);
  build(warm);
  EXPECT_EQ(stat_of(epub), identity) << "an EPUB whose bytes did not change is not written again";
  EXPECT_EQ(test::read_file(epub), first);
  EXPECT_FALSE(zip_module_loaded) << "every entry as it was: the earlier EPUB is taken whole";

  // A changed chapter: a new EPUB, byte for byte what a clean build makes.
  const fs::path chapter = book / "book-en" / "chapter01.md";
  test::write_file(chapter,
                   test::read_file(chapter) + "\nOne more paragraph, added after the first build.\n");
  build(warm);
  EXPECT_TRUE(zip_module_loaded) << "a changed chapter is compressed again";
  fs::remove_all(clean);
  EXPECT_EQ(test::read_file(epub), test::read_file(build(clean)));
  EXPECT_NE(test::read_file(epub), first);

  // The EPUB changed in place, its size and time kept: not offered again (the record's checksum), and
  // the next build is again the clean one's.
  std::string bytes = test::read_file(epub);
  const auto before = stat_of(epub);
  const std::size_t middle = bytes.size() / 2;
  bytes[middle] = static_cast<char>(bytes[middle] ^ 0x20);
  {
    std::fstream f(epub, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(middle));
    f.write(&bytes[middle], 1);
  }
  struct timespec times[2] = {{0, UTIME_OMIT},
                              {before.second / 1'000'000'000, before.second % 1'000'000'000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, epub.c_str(), times, 0), 0);
  ASSERT_EQ(stat_of(epub), before);
  build(warm);
  EXPECT_EQ(test::read_file(epub), test::read_file(clean / "epub" / "links-book-en.epub"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace bb::epub
