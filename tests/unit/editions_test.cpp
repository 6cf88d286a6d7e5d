// Editions (issue 51, item 3): a difference between a translation and its source is one error, in the
// file that has the mistake (the one changed last); an edition checked alone is checked alone; `site`
// and `check` give the same verdict.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "new_book.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::NewBook;

const fs::path kEn = "manuscripts/01-first-steps.md";
const fs::path kZh = "book-zh/01-起步.md";

// Makes `rel` the file changed last: an hour newer than the other chapter.
void touch_later(const NewBook& b, const fs::path& rel) {
  const fs::path other = rel == kEn ? kZh : kEn;
  fs::last_write_time(b.root / rel, fs::last_write_time(b.root / other) + std::chrono::hours(1));
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// Whether a line of the report is a diagnostic at a place in `file`.
bool reports_in(const std::string& err, const fs::path& file) {
  const std::string place = file.generic_string() + ":";
  if (err.starts_with(place)) return true;
  return has(err, "\n" + place);
}

TEST(Editions, ANewBookInTwoLanguagesChecksClean) {
  NewBook b("en,zh");
  auto r = b.run("check");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The case: a label renamed by mistake in the source edition was reported in the correct
// translation too, as a missing label and as a stray one.
TEST(Editions, AMistakeInTheSourceIsReportedOnceInTheSource) {
  NewBook b("en,zh");
  b.replace(kEn, "## Code {#sec:code}", "## Code {#sec:kode}");
  touch_later(b, kEn);
  auto r = b.run("check");
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_FALSE(reports_in(r.err, kZh)) << r.err;
  EXPECT_TRUE(reports_in(r.err, kEn)) << r.err;
  EXPECT_EQ(count(r.err, "`sec:kode`"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "`sec:code`"), 1u) << r.err;
  // The translation alone is right: checked alone, it passes.
  auto zh = b.run("check --edition zh");
  EXPECT_EQ(zh.exit_code, 0) << zh.err;
  // The site gives the check's verdict, with the same errors.
  auto site = b.run("site");
  EXPECT_NE(site.exit_code, 0) << site.err;
  EXPECT_EQ(count(site.err, "`sec:kode`"), 1u) << site.err;
  EXPECT_FALSE(reports_in(site.err, kZh)) << site.err;
}

// The same difference, made in the translation: reported there, and the source stays quiet.
TEST(Editions, AMistakeInTheTranslationIsReportedOnceInTheTranslation) {
  NewBook b("en,zh");
  b.replace(kZh, "{#sec:code}", "{#sec:kode}");
  touch_later(b, kZh);
  auto r = b.run("check");
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_FALSE(reports_in(r.err, kEn)) << r.err;
  EXPECT_TRUE(reports_in(r.err, kZh)) << r.err;
  EXPECT_EQ(count(r.err, "`sec:kode`"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "`sec:code`"), 1u) << r.err;
  auto en = b.run("check --edition en");
  EXPECT_EQ(en.exit_code, 0) << en.err;
  auto site = b.run("site");
  EXPECT_NE(site.exit_code, 0) << site.err;
}

// A calc key bound on one side only: one error, in the file changed last.
TEST(Editions, ACalcKeyBoundOnOneSideIsReportedOnceWhereItChanged) {
  NewBook b("en,zh");
  b.replace(
      kEn, "{{calc weights-8b-bf16.total_packed_weight_bytes | GB:0}}",
      "{{calc weights-8b-bf16.total_packed_weight_bytes | GB:0}} ({{calc model(qwen3-8b).num_hidden_layers}} "
      "layers)");
  touch_later(b, kEn);
  auto r = b.run("check numbers");
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.err, "calc key `model(qwen3-8b).num_hidden_layers`"), 1u) << r.err;
  EXPECT_FALSE(reports_in(r.err, kZh)) << r.err;
  auto en = b.run("check --edition en");
  EXPECT_EQ(en.exit_code, 0) << en.err;
}

}  // namespace
}  // namespace bb
