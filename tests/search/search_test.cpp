// The search index: the tokeniser against the shared cases in fixtures/tokens.txt, sections of a
// chapter, and the files of an index (sizes reported honestly, JSON that parses, deterministic).
// Retrieval itself is tested through the JavaScript client in query_test.mjs.
#include <gtest/gtest.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "markdown/frontend.hpp"
#include "search/search_cache.hpp"
#include "search/search_index.hpp"
#include "text/unicode.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path fixtures() {
  return BOOKBUILD_SEARCH_FIXTURES;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The content of a gzipped index file.
std::string gunzip(const fs::path& p) {
  const std::string in = read(p);
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::string out(64 * 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END) << p;
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

struct TokenCase {
  std::string input;
  std::vector<std::string> expected;  // "kind text"
};

std::vector<TokenCase> token_cases() {
  std::vector<TokenCase> cases;
  std::istringstream in(read(fixtures() / "tokens.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("> "))
      cases.push_back({line.substr(2), {}});
    else if (!line.empty() && !line.starts_with("#") && !cases.empty())
      cases.back().expected.push_back(line);
  }
  return cases;
}

TEST(SearchTokens, SharedCases) {
  auto cases = token_cases();
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    std::vector<std::string> got;
    for (const auto& t : search::tokenize(c.input))
      got.push_back(std::string(search::token_kind_name(t.kind)) + " " + t.text);
    EXPECT_EQ(got, c.expected) << "input: " << c.input;
  }
}

TEST(SearchTokens, FoldIsCaseAndWidthInsensitive) {
  EXPECT_EQ(search::fold("ＧｉＢ"), search::fold("gib"));
  EXPECT_EQ(search::fold("ПАМЯТЬ"), search::fold("память"));
  EXPECT_EQ(search::fold("Cafe\u0301"), search::fold("café"));
  EXPECT_EQ(search::fold("Ⅻ ﬁ İ"), search::fold("xii fi i\u0307"));
  EXPECT_TRUE(text::is_cjk_letter(U'计'));
  EXPECT_TRUE(text::is_cjk_letter(U'カ'));
  EXPECT_TRUE(text::is_cjk_letter(U'한'));
  EXPECT_FALSE(text::is_cjk_letter(U'，'));
  EXPECT_FALSE(search::is_word_char(U'计'));
  EXPECT_TRUE(search::is_word_char(U'ё'));
  EXPECT_FALSE(search::is_word_char(U'-'));
}

std::vector<search::SearchSection> fixture_sections(const std::string& edition) {
  Diagnostics diags;
  doc::Node root = markdown::parse_file(fixtures() / "book" / edition / "ch01.md", diags);
  EXPECT_FALSE(diags.has_errors());
  return search::search_sections(root, "ch01.html", "Chapter one");
}

TEST(SearchSections, OnePerLevel2And3HeadingPlusTheTop) {
  auto sections = fixture_sections("zh");
  ASSERT_EQ(sections.size(), 6u);
  EXPECT_EQ(sections[0].anchor, "");
  EXPECT_EQ(sections[0].title, "Chapter one");
  EXPECT_NE(sections[0].text.find("Qwen3-8B"), std::string::npos);
  EXPECT_EQ(sections[1].anchor, "sec-1-1");
  EXPECT_EQ(sections[1].title, "1.1 矩阵乘法与数据需求");
  EXPECT_EQ(sections[2].anchor, "sec-1-1-1");
  EXPECT_EQ(sections[2].title, "1.1.1 隐藏维度");
  for (const auto& s : sections) {
    EXPECT_EQ(s.page, "ch01.html");
    EXPECT_EQ(s.chapter, "Chapter one");
  }
  // Math as TeX, table cells, code: all searchable, each in its own section only.
  EXPECT_NE(sections[1].text.find("F=2MKN"), std::string::npos);
  EXPECT_NE(sections[3].text.find("寄存器堆"), std::string::npos);
  EXPECT_NE(sections[4].text.find("copy_async"), std::string::npos);
  EXPECT_EQ(sections[3].text.find("copy_async"), std::string::npos);
  EXPECT_EQ(sections[1].text.find("隐藏维度"), std::string::npos);
  // Blocks are separated, so no bigram spans two paragraphs.
  EXPECT_NE(sections[1].text.find("部分和。 计算单元"), std::string::npos);
}

std::size_t size_of_files(const fs::path& dir) {
  std::size_t total = 0;
  for (const auto& e : fs::directory_iterator(dir)) total += fs::file_size(e.path());
  return total;
}

fs::path temp_dir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("bb-search-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

// The folder answers the common scripts from a table (ASCII, CJK ranges that fold to themselves,
// then a memo of ICU's answers): every code point of those ranges, and a sample of others asked
// twice (ICU, then the memo), must fold exactly as ICU's NFKC + root lowercase does.
TEST(SearchTokens, TableFoldEqualsIcu) {
  auto icu_fold = [](char32_t c) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
    icu::UnicodeString k = nfkc->normalize(icu::UnicodeString(static_cast<UChar32>(c)), status);
    k.toLower(icu::Locale::getRoot());
    std::string out;
    k.toUTF8String(out);
    return out;
  };
  auto utf8 = [](char32_t c) {
    std::string s;
    icu::UnicodeString(static_cast<UChar32>(c)).toUTF8String(s);
    return s;
  };
  auto as_utf8 = [](const std::u32string& s) {
    std::string out;
    for (char32_t c : s) icu::UnicodeString(static_cast<UChar32>(c)).toUTF8String(out);
    return out;
  };
  const std::vector<std::pair<char32_t, char32_t>> ranges = {
      {0x21, 0x7E},     {0xA0, 0x24F},    {0x370, 0x52F},    {0x2150, 0x218F},
      {0x3041, 0x30FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},  {0xAC00, 0xD7A3},
      {0xF900, 0xFAFF}, {0xFF01, 0xFF5E}, {0x1D400, 0x1D4FF}};
  for (int pass = 0; pass < 2; ++pass) {
    for (auto [from, to] : ranges) {
      for (char32_t c = from; c <= to; ++c) {
        const std::string in = utf8(c);
        // fold() applies NFC to its input first; a code point that NFC changes is folded as its NFC.
        UErrorCode status = U_ZERO_ERROR;
        if (!icu::Normalizer2::getNFCInstance(status)->isNormalized(icu::UnicodeString::fromUTF8(in), status))
          continue;
        ASSERT_EQ(as_utf8(search::fold(in)), icu_fold(c))
            << "U+" << std::hex << static_cast<std::uint32_t>(c);
      }
    }
  }
}

TEST(SearchIndex, FilesParseAndStatsAreTheirSizes) {
  auto sections = fixture_sections("zh");
  auto dir = temp_dir("files");
  auto stats = search::write_search_index(sections, "zh-Hans", dir);
  EXPECT_EQ(stats.sections, sections.size());
  EXPECT_EQ(stats.index_bytes, size_of_files(dir));
  EXPECT_EQ(stats.files, static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})));
  auto docs = nlohmann::json::parse(read(dir / "docs.json"));
  EXPECT_EQ(docs["lang"], "zh-Hans");
  ASSERT_EQ(docs["sections"].size(), sections.size());
  EXPECT_EQ(docs["sections"][1][1], "sec-1-1");
  EXPECT_EQ(docs["sections"][1][2], "1.1 矩阵乘法与数据需求");
  EXPECT_EQ(docs["chapters"][0][1], "ch01.html");
  EXPECT_GE(docs["cjk"].get<int>(), 1);
  EXPECT_FALSE(docs["words"].empty());
  // Every section's text is in exactly one chunk, in order.
  std::size_t texts = 0;
  for (std::size_t k = 0; k < docs["chunks"].size(); ++k) {
    EXPECT_EQ(docs["chunks"][k].get<std::size_t>(), texts);
    auto chunk = nlohmann::json::parse(gunzip(dir / ("t" + std::to_string(k) + ".json.gz")));
    texts += chunk.size();
  }
  EXPECT_EQ(texts, sections.size());
  const auto docs_bytes = fs::file_size(dir / "docs.json");
  EXPECT_GT(stats.largest_query_bytes, docs_bytes);
  EXPECT_LE(stats.largest_query_bytes, stats.index_bytes);
  fs::remove_all(dir);
}

TEST(SearchIndex, SameInputSameBytes) {
  auto sections = fixture_sections("en");
  auto a = temp_dir("a"), b = temp_dir("b");
  search::write_search_index(sections, "en", a);
  search::write_search_index(sections, "en", b);
  for (const auto& e : fs::directory_iterator(a))
    EXPECT_EQ(read(e.path()), read(b / e.path().filename())) << e.path().filename();
  fs::remove_all(a);
  fs::remove_all(b);
}

// The index kept between runs (site/search_cache.hpp): read back only under its own key, never from a
// damaged entry.
TEST(SearchCache, StoredIndexIsReadBackUnderItsKeyOnly) {
  auto sections = fixture_sections("zh");
  auto dir = temp_dir("cache");
  search::BuiltIndex built;
  built.stats = search::build_search_index(sections, "zh-Hans", built.files);
  const std::string key = search::search_index_key(sections, "zh-Hans", "bookbuild test");
  EXPECT_FALSE(search::load_search_index(dir, "zh", key)) << "nothing stored yet";
  search::store_search_index(dir, "zh", key, built);

  auto back = search::load_search_index(dir, "zh", key);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->files, built.files);
  EXPECT_EQ(back->stats.sections, built.stats.sections);
  EXPECT_EQ(back->stats.index_bytes, built.stats.index_bytes);
  EXPECT_EQ(back->stats.largest_query_bytes, built.stats.largest_query_bytes);
  EXPECT_EQ(back->stats.files, built.stats.files);
  EXPECT_FALSE(search::load_search_index(dir, "en", key)) << "another edition's entry";

  // Anything the index is built from changes the key: a section's text, the language, the tool.
  auto edited = sections;
  edited.back().text += " 新增";
  EXPECT_NE(search::search_index_key(edited, "zh-Hans", "bookbuild test"), key);
  EXPECT_NE(search::search_index_key(sections, "zh-Hant", "bookbuild test"), key);
  EXPECT_NE(search::search_index_key(sections, "zh-Hans", "bookbuild other"), key);
  EXPECT_EQ(search::search_index_key(sections, "zh-Hans", "bookbuild test"), key);
  // Moving text between fields does not give the same key.
  auto moved = sections;
  moved[0].title += moved[0].text;
  moved[0].text.clear();
  EXPECT_NE(search::search_index_key(moved, "zh-Hans", "bookbuild test"), key);
  EXPECT_FALSE(
      search::load_search_index(dir, "zh", search::search_index_key(edited, "zh-Hans", "bookbuild test")));

  // A damaged entry is not trusted: truncated, a byte changed in a size, a name that leaves the folder.
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), {}), 1);
  const fs::path entry = fs::directory_iterator(dir)->path();
  const std::string good = read(entry);
  auto write = [&](const std::string& bytes) { std::ofstream(entry, std::ios::binary) << bytes; };
  write(good.substr(0, good.size() - 1));
  EXPECT_FALSE(search::load_search_index(dir, "zh", key)) << "truncated";
  write(good + "x");
  EXPECT_FALSE(search::load_search_index(dir, "zh", key)) << "trailing bytes";
  std::string renamed = good;
  const std::string name = built.files.begin()->first;  // the first file stored
  auto at = renamed.find(std::to_string(name.size()) + ' ');
  ASSERT_NE(at, std::string::npos);
  const std::string evil = "../" + name.substr(3);
  renamed.replace(renamed.find(name, at), name.size(), evil);
  write(renamed);
  EXPECT_FALSE(search::load_search_index(dir, "zh", key)) << "a name with a path";
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, good.size() / 2}) {
    write(good.substr(0, cut));
    EXPECT_FALSE(search::load_search_index(dir, "zh", key)) << cut;
  }
  write(good);
  EXPECT_TRUE(search::load_search_index(dir, "zh", key));
  fs::remove_all(dir);
}

TEST(SearchIndex, StoredTextIsCollapsedNfc) {
  std::vector<search::SearchSection> sections{
      {"p.html", "", "Title", "Chapter", "  Cafe\u0301\n\n  and\tmore  "}};
  auto dir = temp_dir("nfc");
  search::write_search_index(sections, "en", dir);
  EXPECT_EQ(gunzip(dir / "t0.json.gz"), "[\"Café and more\"]");
  fs::remove_all(dir);
}

// White space and control characters beyond ASCII (decided from ICU's properties, then a table),
// and ill-formed UTF-8, in the stored form.
TEST(SearchIndex, StoredTextDropsEveryControlAndCollapsesEveryWhiteSpace) {
  std::vector<search::SearchSection> sections{
      {"p.html", "", "Title", "Chapter",
       "\u3000a\u3000\u00A0b\u2028c\u200Bd \U000E0001e\U0001D400 x\xFFy \u8BA1\u0085\u7B97 "}};
  auto dir = temp_dir("white");
  search::write_search_index(sections, "en", dir);
  EXPECT_EQ(gunzip(dir / "t0.json.gz"), "[\"a b cd e\U0001D400 x\uFFFDy \u8BA1 \u7B97\"]");
  fs::remove_all(dir);
}

TEST(SearchIndex, EmptyEditionStillHasDocs) {
  auto dir = temp_dir("empty");
  auto stats = search::write_search_index({}, "en", dir);
  EXPECT_EQ(stats.sections, 0u);
  EXPECT_EQ(stats.files, 1u);
  auto docs = nlohmann::json::parse(read(dir / "docs.json"));
  EXPECT_EQ(docs["cjk"], 0);
  EXPECT_TRUE(docs["sections"].empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bb
