// The highlight cache's file (builder/highlight/cache.hpp): what one run writes the next reads back
// token for token, any damaged byte makes the whole file ignored, and blocks no run uses age out.
#include "highlight/cache.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace bb::highlight::cache {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The code blocks of the fixture book, highlighted by the module itself.
struct Blocks {
  std::string python = read(test::fixtures() / "highlight" / "sum.py");
  std::string cpp = read(test::fixtures() / "highlight" / "sum.cpp");
  Result python_tokens = tokens("python", python);
  Result cpp_tokens = tokens("cpp", cpp);
};

bool same(const Result& a, const Result& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->size() != b->size()) return false;
  for (std::size_t i = 0; i < a->size(); ++i)
    if ((*a)[i].kind != (*b)[i].kind || (*a)[i].text != (*b)[i].text) return false;
  return true;
}

// A file holding both blocks and a language without definition.
std::string written_file(const Blocks& b) {
  Store s("stamp 1", "");
  s.put("python", b.python, b.python_tokens);
  s.put("cpp", b.cpp, b.cpp_tokens);
  s.put("no-such-language", "x = 1\n", std::nullopt);
  auto bytes = s.save();
  EXPECT_TRUE(bytes);
  return bytes.value_or("");
}

TEST(HighlightCache, WhatOneRunWritesTheNextReadsBack) {
  Blocks b;
  ASSERT_TRUE(b.python_tokens && b.cpp_tokens);
  Store read_back("stamp 1", written_file(b));
  EXPECT_EQ(read_back.size(), 3u);
  auto python = read_back.find("python", b.python);
  ASSERT_TRUE(python);
  EXPECT_TRUE(same(*python, b.python_tokens));
  auto cpp = read_back.find("cpp", b.cpp);
  ASSERT_TRUE(cpp);
  EXPECT_TRUE(same(*cpp, b.cpp_tokens));
  auto plain = read_back.find("no-such-language", "x = 1\n");
  ASSERT_TRUE(plain);  // the negative answer is cached too
  EXPECT_FALSE(*plain);
  // A changed block, or the same code in another language, is a miss.
  EXPECT_FALSE(read_back.find("python", b.python + "\n"));
  EXPECT_FALSE(read_back.find("cpp", b.python));
  EXPECT_FALSE(read_back.find("pytho", "n" + b.python));
  // Every block found: the file is right as it is, and is not written again.
  EXPECT_FALSE(read_back.save());
}

TEST(HighlightCache, AnotherInstallationsFileIsIgnored) {
  Blocks b;
  const std::string bytes = written_file(b);
  EXPECT_EQ(Store("stamp 2", bytes).size(), 0u);
  EXPECT_EQ(Store("stamp 1", "").size(), 0u);
}

// Whatever damage the file took (cut short, one byte changed anywhere, bytes added), the whole file is
// ignored: no block is found, nothing crashes.
TEST(HighlightCache, EveryDamagedFileIsIgnored) {
  Blocks b;
  const std::string bytes = written_file(b);
  ASSERT_EQ(Store("stamp 1", bytes).size(), 3u);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_EQ(Store("stamp 1", bytes.substr(0, n)).size(), 0u) << n;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      EXPECT_EQ(Store("stamp 1", damaged).size(), 0u) << i;
    }
  EXPECT_EQ(Store("stamp 1", bytes + '\0').size(), 0u);
}

// Files whose checksum is right but whose content is impossible (tests/fixtures/highlight, written by
// make-damaged.py next to them): counts past the end, tokens that do not add up to the code, unknown
// kinds. The well-formed one among them is read.
TEST(HighlightCache, ImpossibleContentIsIgnored) {
  const fs::path dir = test::fixtures() / "highlight";
  Store good("stamp 1", read(dir / "well-formed.bin"));
  ASSERT_EQ(good.size(), 2u);
  auto x = good.find("python", "x = 1\n");
  ASSERT_TRUE(x && *x);
  ASSERT_EQ((*x)->size(), 3u);
  EXPECT_EQ((**x)[1].kind, "number");
  EXPECT_EQ((**x)[1].text, "1");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".bin" || e.path().filename() == "well-formed.bin") continue;
    ++files;
    EXPECT_EQ(Store("stamp 1", read(e.path())).size(), 0u) << e.path().filename();
  }
  EXPECT_GE(files, 10);
}

// A block no run looks up is kept for kKeepWrites writes (an edition built alone does not evict the
// other's blocks), then dropped (the file does not grow with every edit of a block).
TEST(HighlightCache, UnusedBlocksAgeOut) {
  Blocks b;
  std::string bytes = written_file(b);  // the first write
  for (std::uint32_t write = 2; write <= kKeepWrites + 3; ++write) {
    // Looked up in a copy, so that looking does not keep it.
    EXPECT_EQ(Store("stamp 1", bytes).find("cpp", b.cpp).has_value(), write <= kKeepWrites + 2) << write;
    Store s("stamp 1", bytes);
    EXPECT_TRUE(s.find("python", b.python)) << write;
    const std::string edited = "x = " + std::to_string(write) + "\n";  // an edited block
    s.put("python", edited, tokens("python", edited));
    auto next = s.save();
    ASSERT_TRUE(next);
    bytes = *next;
  }
  Store s("stamp 1", bytes);
  EXPECT_TRUE(s.find("python", b.python));
  EXPECT_FALSE(s.find("python", "x = 2\n"));
  EXPECT_TRUE(s.find("python", "x = 3\n"));
  EXPECT_TRUE(s.find("python", "x = " + std::to_string(kKeepWrites + 3) + "\n"));
}

// Runs that only find blocks do not rewrite the file, unless a block they use is getting old: then it is
// written again, so that an edition built only from the cache keeps its blocks.
TEST(HighlightCache, BlocksInUseAreKept) {
  Blocks b;
  std::string bytes = written_file(b);
  for (std::uint32_t write = 2; write <= 3 * kKeepWrites; ++write) {
    Store s("stamp 1", bytes);
    const std::string edited = "x = " + std::to_string(write) + "\n";  // the other edition, edited
    s.put("python", edited, tokens("python", edited));
    bytes = s.save().value_or("");
    Store other("stamp 1", bytes);  // this edition, all from the cache
    ASSERT_TRUE(other.find("cpp", b.cpp)) << write;
    if (auto again = other.save()) bytes = *again;
  }
}

// The stamp names the installation: the module, Source-highlight's libraries, its data folder and that
// folder's lang.map; another data folder (SOURCE_HIGHLIGHT_DATADIR) gives another stamp, a missing one none.
TEST(HighlightCache, TheStampFollowsTheDataFolder) {
  auto installed = stamp();
  ASSERT_TRUE(installed);
  EXPECT_NE(installed->find("lang.map"), std::string::npos);
  EXPECT_NE(installed->find("bookbuild_highlighter.so"), std::string::npos);
  fs::path copy = fs::temp_directory_path() / ("bb-hl-data-" + std::to_string(::getpid()));
  fs::remove_all(copy);
  fs::create_directories(copy);
  const std::size_t data = installed->find("\ndata ") + 6;
  const fs::path installed_dir = installed->substr(data, installed->find('\n', data) - data);
  fs::copy_file(installed_dir / "lang.map", copy / "lang.map");
  ::setenv("SOURCE_HIGHLIGHT_DATADIR", copy.c_str(), 1);
  auto other = stamp();
  ASSERT_TRUE(other);
  EXPECT_NE(*other, *installed);
  std::ofstream(copy / "lang.map", std::ios::app) << "# edited\n";
  auto edited = stamp();
  ASSERT_TRUE(edited);
  EXPECT_NE(*edited, *other);
  ::setenv("SOURCE_HIGHLIGHT_DATADIR", (copy / "missing").c_str(), 1);
  EXPECT_FALSE(stamp());
  ::unsetenv("SOURCE_HIGHLIGHT_DATADIR");
  fs::remove_all(copy);
}

// The module keeps a language's highlighter for the process's life: a run after the language's
// definition changed gets no section for it (its blocks are not kept), whatever order runs come in.
TEST(HighlightCache, ALanguageChangedSinceTheModuleReadItIsNotKept) {
  const std::string lang = "as-first-read-" + std::to_string(::getpid());
  const std::optional<std::string> before = "lang " + lang + "\nfile x.lang 1 2 3 4 5\n";
  const std::optional<std::string> after = "lang " + lang + "\nfile x.lang 1 2 3 9 5\n";
  EXPECT_EQ(as_first_read(lang, before), before);
  EXPECT_EQ(as_first_read(lang, before), before);
  EXPECT_EQ(as_first_read(lang, after), std::nullopt);
  EXPECT_EQ(as_first_read(lang, std::nullopt), std::nullopt);
  EXPECT_EQ(as_first_read(lang, before), before);  // edited back: the module's definition again
  // Another language is judged by its own first section; one first covered without a section stays so.
  EXPECT_EQ(as_first_read(lang + "-other", after), after);
  EXPECT_EQ(as_first_read(lang + "-none", std::nullopt), std::nullopt);
  EXPECT_EQ(as_first_read(lang + "-none", before), std::nullopt);
}

// A stand-in data folder (tests/fixtures/highlight/data): lang.map names `calc` (calc.lang, which includes
// common.lang and the missing later.lang) and `other` (other.lang). Its files are dated an hour back, as
// a language is covered only by files that settled.
class StandInData : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bb-hl-stand-in-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::copy(test::fixtures() / "highlight" / "data", dir_);
    for (const auto& e : fs::directory_iterator(dir_)) settle(e.path());
    ::setenv("SOURCE_HIGHLIGHT_DATADIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("SOURCE_HIGHLIGHT_DATADIR");
    fs::remove_all(dir_);
  }
  static void settle(const fs::path& p) {
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(1));
  }
  // The bytes a run that highlighted one `calc` block writes.
  std::string written() {
    auto first = stamp();
    EXPECT_TRUE(first);
    Store s(first.value_or(""), "");
    s.cover("calc", language_section("calc", "calc.lang"));
    EXPECT_EQ(s.covers("calc"), std::optional<bool>(true));
    s.put("calc", "1 + 2\n", std::nullopt);
    return s.save().value_or("");
  }
  // Whether the next run takes that block from the file.
  bool next_run_hits(const std::string& bytes) {
    auto now = stamp(stored_stamp(bytes));
    return now && Store(*now, bytes).find("calc", "1 + 2\n").has_value();
  }
  void append(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::app) << text;
    settle(dir_ / name);
  }
  fs::path dir_;
};

TEST_F(StandInData, ALanguageIsCoveredByItsDefinitionAndWhatItIncludes) {
  auto section = language_section("calc", "calc.lang");
  ASSERT_TRUE(section);
  EXPECT_NE(section->find("file calc.lang "), std::string::npos);
  EXPECT_NE(section->find("file common.lang "), std::string::npos);
  EXPECT_NE(section->find("file later.lang -"), std::string::npos);  // missing, watched all the same
  EXPECT_EQ(section->find("other.lang"), std::string::npos);
  EXPECT_TRUE(next_run_hits(written()));
}

TEST_F(StandInData, AFileTheLanguageDoesNotReadChangesNothing) {
  const std::string bytes = written();
  append("other.lang", "# edited\n");
  EXPECT_TRUE(next_run_hits(bytes));
}

TEST_F(StandInData, EveryFileTheLanguageReadsInvalidatesItsBlocks) {
  for (const char* name : {"calc.lang", "common.lang", "lang.map"}) {
    SetUp();
    const std::string bytes = written();
    append(name, "# edited\n");
    EXPECT_FALSE(next_run_hits(bytes)) << name;
  }
}

TEST_F(StandInData, AnIncludedFileThatAppearsInvalidatesItsBlocks) {
  const std::string bytes = written();
  append("later.lang", "# now here\n");
  EXPECT_FALSE(next_run_hits(bytes));
}

TEST_F(StandInData, AFileReplacedWithTheSameSizeAndTimeInvalidatesItsBlocks) {
  const std::string bytes = written();
  const auto time = fs::last_write_time(dir_ / "common.lang");
  std::string text = read(dir_ / "common.lang");
  text.back() = text.back() == 'x' ? 'y' : 'x';
  std::ofstream(dir_ / "common.lang.new", std::ios::binary) << text;
  fs::last_write_time(dir_ / "common.lang.new", time);
  fs::rename(dir_ / "common.lang.new", dir_ / "common.lang");
  EXPECT_FALSE(next_run_hits(bytes));
}

TEST_F(StandInData, AFileJustModifiedIsNotTrusted) {
  std::ofstream(dir_ / "common.lang", std::ios::app) << "# edited now\n";
  EXPECT_FALSE(language_section("calc", "calc.lang"));
}

TEST_F(StandInData, AFileRejectedKeepsNoSection) {
  const std::string bytes = written();
  append("common.lang", "# edited\n");
  auto now = stamp(stored_stamp(bytes));
  ASSERT_TRUE(now);
  Store s(*now, bytes);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_FALSE(s.covers("calc"));  // covered again, with what calc.lang includes now
  EXPECT_EQ(s.stamp().find("lang calc"), std::string::npos);
}

}  // namespace
}  // namespace bb::highlight::cache
