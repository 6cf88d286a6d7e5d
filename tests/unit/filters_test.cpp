// Filters in isolation: reference recognition per language, number formatting and reading.
#include <gtest/gtest.h>

#include "book/config.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/crossref.hpp"
#include "filters/number_format.hpp"
#include "filters/numbering.hpp"

namespace bb::filters {
namespace {

std::vector<std::string> refs(std::string_view text, std::string_view lang) {
  std::vector<std::string> out;
  for (const auto& r : find_plain_refs(text, lang))
    out.push_back(std::string(text.substr(r.begin, r.end - r.begin)) + "=" + target_kind_name(r.kind) + ":" +
                  r.number);
  return out;
}

TEST(PlainRefs, SimplifiedChinese) {
  EXPECT_EQ(refs("见图 4-5 与图 4-10，第 4.8.3 节和第 6 章，例 4-1、实验 4-2。", "zh-Hans"),
            (std::vector<std::string>{"图 4-5=figure:4-5", "图 4-10=figure:4-10", "第 4.8.3 节=section:4.8.3",
                                      "第 6 章=chapter:6", "例 4-1=example:4-1", "实验 4-2=experiment:4-2"}));
  EXPECT_EQ(refs("第 2、3 章", "zh-Hans"), (std::vector<std::string>{"第 2=chapter:2", "3=chapter:3"}));
  EXPECT_TRUE(refs("例如 4-5 倍，第 4 个，表示 1-2", "zh-Hans").empty());
}

TEST(PlainRefs, TraditionalChinese) {
  EXPECT_EQ(refs("見圖 4-5 與第 4.2 節", "zh-Hant"),
            (std::vector<std::string>{"圖 4-5=figure:4-5", "第 4.2 節=section:4.2"}));
}

TEST(PlainRefs, English) {
  EXPECT_EQ(refs("See Figure 4-5, Figures 4-9 and 4-10, Section 4.8.3 and Chapter 6.", "en"),
            (std::vector<std::string>{"Figure 4-5=figure:4-5", "Figures 4-9=figure:4-9", "4-10=figure:4-10",
                                      "Section 4.8.3=section:4.8.3", "Chapter 6=chapter:6"}));
  EXPECT_TRUE(refs("Figured 4-5, Chapter 4-5 of a standard, Section 4 alone, Qwen3-8B", "en").empty());
}

TEST(PlainRefs, RussianCaseForms) {
  EXPECT_EQ(refs("На рис. 4-5 и в разделе 4.8.3, см. главу 6 и Пример 4-1.", "ru"),
            (std::vector<std::string>{"рис. 4-5=figure:4-5", "разделе 4.8.3=section:4.8.3",
                                      "главу 6=chapter:6", "Пример 4-1=example:4-1"}));
  EXPECT_TRUE(refs("рисовать 4-5 раз", "ru").size() == 1) << "stems match any ending, by design";
}

TEST(Labels, FillPattern) {
  EXPECT_EQ(fill_label("第 {} 节", "4.2"), "第 4.2 节");
  EXPECT_EQ(fill_label("Figure {}", "1-1"), "Figure 1-1");
}

TEST(SectionNumber, Leading) {
  std::size_t strip = 0;
  EXPECT_EQ(leading_section_number("4.2.3 Title", strip), "4.2.3");
  EXPECT_EQ(strip, 6u);
  EXPECT_EQ(leading_section_number("4 Title", strip), "");
  EXPECT_EQ(leading_section_number("4.2Title", strip), "");
}

std::string fmt(Number n, const std::string& spec, const std::string& lang) {
  std::string err;
  auto f = parse_format(spec, err);
  EXPECT_TRUE(f) << err;
  return format_number(n, *f, book::default_numbers(lang), lang);
}

Number integer(std::int64_t v) {
  return {true, v, 0};
}
Number real(double v) {
  return {false, 0, v};
}

TEST(NumberFormat, EnglishAndChinese) {
  EXPECT_EQ(fmt(integer(8190735360), "", "en"), "8,190,735,360");
  EXPECT_EQ(fmt(integer(133594323353600), "TFLOPs:2", "en"), "133.59 TFLOPs");
  EXPECT_EQ(fmt(integer(16381470720), "GiB:2", "zh-Hans"), "15.26 GiB");
  EXPECT_EQ(fmt(integer(16381470720), "GB:1", "zh-Hans"), "16.4 GB");
  EXPECT_EQ(fmt(real(1.2245760000000001e-05), "μs:2", "en"), "12.25 μs");
  EXPECT_EQ(fmt(real(0.020895522388059702), "ms:3", "en"), "20.896 ms");
  EXPECT_EQ(fmt(real(0.25), "%:1", "en"), "25.0%");
  EXPECT_EQ(fmt(real(295.34328358208955), "sig:3", "en"), "295");
  EXPECT_EQ(fmt(integer(123456), "sig:2", "en"), "120,000");
  EXPECT_EQ(fmt(integer(1207959552), "GiB:3:bare", "en"), "1.125");
  EXPECT_EQ(fmt(real(47.857142857142854), "fixed:1", "en"), "47.9");
  EXPECT_EQ(fmt(integer(4096), "int", "en"), "4,096");
}

TEST(NumberFormat, RussianLocale) {
  EXPECT_EQ(fmt(integer(8190735360), "", "ru"), "8\u202F190\u202F735\u202F360");
  EXPECT_EQ(fmt(integer(4096), "", "ru"), "4096");  // four digits are not grouped
  EXPECT_EQ(fmt(integer(16381470720), "GiB:2", "ru"), "15,26\u00A0ГиБ");
  EXPECT_EQ(fmt(real(0.020895522388059702), "ms:1", "ru"), "20,9\u00A0мс");
}

TEST(NumberFormat, BadSpecsSayWhy) {
  std::string err;
  EXPECT_FALSE(parse_format("furlongs:2", err));
  EXPECT_NE(err.find("unknown format or unit `furlongs`"), std::string::npos);
  EXPECT_FALSE(parse_format("fixed", err));
  EXPECT_FALSE(parse_format("GiB:x", err));
  EXPECT_FALSE(parse_format("GiB:2:bare:x", err));
}

TEST(Literal, ReadsLocaleAndUnit) {
  auto en = parse_literal("133.59 TFLOPs", book::default_numbers("en"));
  ASSERT_TRUE(en);
  EXPECT_NEAR(static_cast<double>(en->value), 133.59, 1e-12);
  EXPECT_EQ(en->decimals, 2);
  EXPECT_EQ(en->unit->name, "TFLOPs");
  auto ru = parse_literal("15,26\u00A0ГиБ", book::default_numbers("ru"));
  ASSERT_TRUE(ru);
  EXPECT_NEAR(static_cast<double>(ru->value), 15.26, 1e-12);
  EXPECT_EQ(ru->unit->name, "GiB");
  auto grouped = parse_literal("8,190,735,360", book::default_numbers("en"));
  ASSERT_TRUE(grouped);
  EXPECT_EQ(static_cast<long long>(grouped->value), 8190735360LL);
  EXPECT_FALSE(parse_literal("about ten", book::default_numbers("en")));
  EXPECT_FALSE(parse_literal("12 parsecs", book::default_numbers("en")));
}

TEST(Placeholder, Split) {
  std::string e, f;
  EXPECT_TRUE(split_placeholder("calc a.b.c | GiB:2", e, f));
  EXPECT_EQ(e, "a.b.c");
  EXPECT_EQ(f, "GiB:2");
  EXPECT_TRUE(split_placeholder("a.b", e, f));
  EXPECT_EQ(f, "");
  EXPECT_TRUE(split_placeholder("forward(model=qwen3-8b, tokens=8192).matrix_flops | TFLOPs:1", e, f));
  EXPECT_EQ(e, "forward(model=qwen3-8b, tokens=8192).matrix_flops");
  EXPECT_FALSE(split_placeholder("two words | x", e, f));
  EXPECT_FALSE(split_placeholder(" | x", e, f));
}

}  // namespace
}  // namespace bb::filters
