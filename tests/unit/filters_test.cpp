// Filters in isolation: reference recognition per language, number formatting and reading.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "book/config.hpp"
#include "epub/zip.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/crossref.hpp"
#include "filters/number_format.hpp"
#include "filters/numbering.hpp"
#include "test_support.hpp"

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
  // A stem takes only a noun's case endings: the verb "рисовать" (to draw) names no figure.
  EXPECT_TRUE(refs("нужно рисовать 4-5 раз, рисуем 2-3", "ru").empty());
  EXPECT_EQ(refs("на рисунке 4-5 и в таблице 4-2", "ru"),
            (std::vector<std::string>{"рисунке 4-5=figure:4-5", "таблице 4-2=table:4-2"}));
}

TEST(PlainRefs, PercentAndDecimalsAreQuantities) {
  EXPECT_EQ(refs("Section 1.2.2, 35.3% and 65% of the time", "en"),
            (std::vector<std::string>{"Section 1.2.2=section:1.2.2"}));
  EXPECT_EQ(refs("第 1.2 节，35.3% 与 65%", "zh-Hans"), (std::vector<std::string>{"第 1.2 节=section:1.2"}));
  EXPECT_TRUE(refs("Chapter 35.3 of the standard, Figure 4-5% off", "en").empty());
}

TEST(PlainRefs, ItemNumbersWithDotsAndDashes) {
  EXPECT_EQ(refs("例 9.1、例题 9-2 与示例 9–3", "zh-Hans"),
            (std::vector<std::string>{"例 9.1=example:9-1", "例题 9-2=example:9-2", "示例 9–3=example:9-3"}));
  EXPECT_EQ(refs("Example 9.1 and Table 2–4", "en"),
            (std::vector<std::string>{"Example 9.1=example:9-1", "Table 2–4=table:2-4"}));
  EXPECT_EQ(refs("範例 7.2 與例題 7.3", "zh-Hant"),
            (std::vector<std::string>{"範例 7.2=example:7-2", "例題 7.3=example:7-3"}));
  EXPECT_EQ(refs("Пример 9.1", "ru"), (std::vector<std::string>{"Пример 9.1=example:9-1"}));
}

TEST(PlainRefs, EquationsInEveryLanguage) {
  EXPECT_EQ(
      refs("由式（6-1）和式 (6-2)，公式 6-3", "zh-Hans"),
      (std::vector<std::string>{"式（6-1）=equation:6-1", "式 (6-2)=equation:6-2", "公式 6-3=equation:6-3"}));
  EXPECT_EQ(refs("代入式（6-5）。", "zh-Hant"), (std::vector<std::string>{"式（6-5）=equation:6-5"}));
  // "式" ends many words: without parentheses it is no equation reference.
  EXPECT_TRUE(refs("形式 1-2，模式 3-4", "zh-Hans").empty());
  EXPECT_EQ(refs("By Eq. (6-1), Equation 6-2 and Equations (6-3) and (6-4)", "en"),
            (std::vector<std::string>{"Eq. (6-1)=equation:6-1", "Equation 6-2=equation:6-2",
                                      "Equations (6-3)=equation:6-3", "(6-4)=equation:6-4"}));
  EXPECT_EQ(refs("из уравнения (6-1) и формулы (6-2)", "ru"),
            (std::vector<std::string>{"уравнения (6-1)=equation:6-1", "формулы (6-2)=equation:6-2"}));
}

TEST(PlainRefs, EditionLeadWordsAreReferences) {
  ReferenceScanner scanner("zh-Hans", {{"example", {"算例"}}});
  auto found = scanner.scan("见算例 4-1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, TargetKind::Example);
  EXPECT_EQ(found[0].number, "4-1");
}

// The scanner looks only at the bytes before each number (crossref.hpp); a lead word with a digit in
// it turns that off and every byte is looked at. Both must find the same references in any text: here
// thousands of texts made of reference words, numbers, and every separator that may stand between.
TEST(PlainRefs, LookingOnlyBeforeNumbersFindsWhatAFullScanFinds) {
  const std::vector<std::string> words = {
      "图",      "表",      "式",   "第",      "实验",    "例",    "Figure", "Figures", "Eq.", "Table",
      "Section", "Chapter", "рис.", "рисунке", "формулы", "главе", "раздел", "形式",    "x",   "Q"};
  const std::vector<std::string> gaps = {"",       " ", "  ",     "\u00A0", "\u202F",
                                         "\u2009", "(", "\uFF08", ".",      "A"};
  const std::vector<std::string> numbers = {"4",    "4-5",   "4.8.3", "12", "2026",
                                            "6-1)", "6-1）", "4-5%",  "2-A"};
  const std::vector<std::string> after = {"",    " ",  "节", "章", " 节", "、", "，", " and ",
                                          " и ", "和", "–",  "-",  ".",   "\n", "x"};
  std::uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  std::size_t found = 0;
  for (const char* lang : {"zh-Hans", "en", "ru"}) {
    const ReferenceScanner windowed(lang);
    const ReferenceScanner full(lang, {{"figure", {"Q9Z"}}});  // never in the texts below
    for (int round = 0; round < 3000; ++round) {
      std::string text;
      for (std::uint32_t n = 1 + next() % 6; n > 0; --n) {
        text += words[next() % words.size()];
        for (std::uint32_t g = next() % 3; g > 0; --g) text += gaps[next() % gaps.size()];
        text += numbers[next() % numbers.size()];
        text += after[next() % after.size()];
      }
      const auto a = windowed.scan(text), b = full.scan(text);
      ASSERT_EQ(a.size(), b.size()) << lang << ": " << text;
      found += a.size();
      for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].begin, b[k].begin) << text;
        EXPECT_EQ(a[k].end, b[k].end) << text;
        EXPECT_EQ(a[k].number, b[k].number) << text;
        EXPECT_EQ(a[k].kind, b[k].kind) << text;
      }
    }
  }
  // And the texts do hold references: the comparison is not of two empty lists.
  EXPECT_GT(found, 1000u);
  EXPECT_EQ(ReferenceScanner("en").scan("see Figure  \u00A0(4-5) and Section 4.8.3").size(), 2u);
  EXPECT_EQ(ReferenceScanner("ru").scan("на рисунке 4-5").size(), 1u);
}

TEST(Numbers, CanonicalItemNumber) {
  EXPECT_EQ(canonical_item_number("9.1"), "9-1");
  EXPECT_EQ(canonical_item_number("9–1"), "9-1");
  EXPECT_EQ(canonical_item_number("9-1"), "9-1");
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

TEST(Literal, ReadsTheLanguagesNumberWords) {
  // languages/*.toml [numbers.words]: any case, exact integers, no unit.
  auto four = parse_literal("Four", book::default_numbers("en"));
  ASSERT_TRUE(four);
  EXPECT_EQ(static_cast<long long>(four->value), 4);
  EXPECT_EQ(four->decimals, 0);
  EXPECT_FALSE(four->unit);
  auto ru = parse_literal("Восемью", book::default_numbers("ru"));
  ASSERT_TRUE(ru);
  EXPECT_EQ(static_cast<long long>(ru->value), 8);
  auto zh = parse_literal("十六", book::default_numbers("zh-Hans"));
  ASSERT_TRUE(zh);
  EXPECT_EQ(static_cast<long long>(zh->value), 16);
  auto tw = parse_literal("八", book::default_numbers("zh-Hant"));
  ASSERT_TRUE(tw);
  EXPECT_EQ(static_cast<long long>(tw->value), 8);
  // Another language's word, or a word that only contains one, is no number.
  EXPECT_FALSE(parse_literal("four", book::default_numbers("ru")));
  EXPECT_FALSE(parse_literal("fourfold", book::default_numbers("en")));
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

// Placeholders of every form docs/manuscripts.md lists, each written twice, and the errors a
// placeholder can have: resolved with an edition's memo shared by two chapters, each gives what
// reading it alone (split, parse, evaluate, format) gives, and each error is reported at every
// occurrence, at its own place.
std::vector<std::string> placeholder_forms() {
  std::vector<std::string> forms{"calc a.b",
                                 "a.b",
                                 "calc a.b | int",
                                 "a.b|fixed:2",
                                 "a.b | sig:3",
                                 "a.b | %:1",
                                 "r.x | GiB:2",
                                 "r.x | GB:1",
                                 "r.x | TB/s:2",
                                 "r.x | GiB:sig2",
                                 "r.x | GiB:bare",
                                 "r.x | ms:1",
                                 "r.x | μs:1",
                                 "r.x | us:1",
                                 "forward(model=qwen3-8b, tokens=8192).matrix_flops | TFLOPs:1",
                                 "two words | x",
                                 " | x",
                                 "a.b | nosuch:2",
                                 "missing.field",
                                 "missing.field | int"};
  return forms;
}

Number fake_value(const std::string& expr) {
  if (expr.starts_with("missing")) throw std::runtime_error("no such field `" + expr + "`");
  if (expr == "a.b") return Number{false, 0, 0.125};
  if (expr == "r.x") return Number{true, 8190735360, 0};
  return Number{false, 0, 3.35e12};
}

book::Chapter placeholder_chapter(const std::string& key, int first_line) {
  book::Chapter ch;
  ch.key = key;
  ch.root = doc::Node(doc::Kind::Document, {"/book/" + key + ".md", 1, 1});
  int line = first_line;
  for (int copy = 0; copy < 2; ++copy)
    for (const auto& form : placeholder_forms()) {
      doc::Node para(doc::Kind::Paragraph, {ch.root.loc.path, line, 1});
      doc::Node calc(doc::Kind::CalcNumber, {ch.root.loc.path, line, 3});
      calc.text = form;
      para.children.push_back(std::move(calc));
      ch.root.children.push_back(std::move(para));
      ++line;
    }
  return ch;
}

TEST(Placeholder, MemoGivesWhatEachOccurrenceReadAloneGives) {
  book::Edition edition;
  edition.id = "ru";
  edition.lang = "ru";
  edition.numbers = book::default_numbers("ru");
  int evaluations = 0;
  const Evaluator evaluate = [&](const std::string& expr) {
    ++evaluations;
    return fake_value(expr);
  };
  PlaceholderMemo memo;
  std::vector<Binding> bindings;
  Diagnostics diags;
  std::vector<book::Chapter> chapters{placeholder_chapter("ch01", 1), placeholder_chapter("ch02", 100)};
  for (auto& ch : chapters) resolve_calc_numbers(ch, edition, &evaluate, bindings, diags, &memo);

  // What each occurrence reads as on its own.
  std::vector<std::string> shown, errors;
  for (const auto& ch : chapters) {
    int line = ch.key == "ch01" ? 1 : 100;
    for (int copy = 0; copy < 2; ++copy)
      for (const auto& form : placeholder_forms()) {
        const std::string at = "/book/" + ch.key + ".md:" + std::to_string(line++) + ":3: ";
        std::string expr, format, error;
        if (!split_placeholder(form, expr, format)) {
          errors.push_back(at + "malformed computed number `{{" + form +
                           "}}`: write `{{calc scenario.field | format}}`");
          continue;
        }
        auto f = parse_format(format, error);
        if (!f) {
          errors.push_back(at + error);
          continue;
        }
        try {
          shown.push_back(expr + " = " + format_number(fake_value(expr), *f, edition.numbers, edition.lang));
        } catch (const std::exception& ex) {
          errors.push_back(at + "cannot compute `" + expr + "`: " + ex.what());
        }
      }
  }
  std::vector<std::string> got_shown, got_errors;
  for (const auto& b : bindings) got_shown.push_back(b.expr + " = " + b.shown);
  for (const auto& d : diags.all())
    got_errors.push_back(d.loc.path.string() + ":" + std::to_string(d.loc.line) + ":" +
                         std::to_string(d.loc.col) + ": " + d.message);
  EXPECT_EQ(got_shown, shown);
  EXPECT_EQ(got_errors, errors);
  // Of the 20 forms, 3 are errors before evaluation and 2 name a missing field; every other occurrence
  // is evaluated, and so is each occurrence of the missing field (its error is its own each time).
  EXPECT_EQ(shown.size(), 4u * 15);
  EXPECT_EQ(evaluations, 4 * 17);
  // A resolved placeholder holds the value shown, and the expression alone as its text.
  const doc::Node& gib = chapters[1].root.children.at(26).children.at(0);
  EXPECT_EQ(gib.text, "r.x");
  ASSERT_EQ(gib.children.size(), 1u);
  std::string error;
  EXPECT_EQ(gib.children[0].text,
            format_number(fake_value("r.x"), *parse_format("GiB:2", error), edition.numbers, edition.lang));
}

// One fixture book with every convention class in four languages (tests/filters/conventions), built
// by the three writers: each expected reference is a link to the expected target in the HTML of the
// site, the XHTML of the EPUB and the LaTeX, and every link target of each output exists there.
namespace fs = std::filesystem;

struct ExpectedLink {
  std::string edition, chapter, written, target_chapter, id;
};

std::vector<ExpectedLink> expected_links(const fs::path& file) {
  std::vector<ExpectedLink> out;
  std::istringstream in(test::read_file(file));
  std::string line;
  static const std::regex form(R"(^(\S+) (\S+): (.+) => (\S+)#(\S+)$)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (line.empty() || line[0] == '#') continue;
    EXPECT_TRUE(std::regex_match(line, m, form)) << line;
    if (!m.empty()) out.push_back({m[1], m[2], m[3], m[4], m[5]});
  }
  return out;
}

// Links of one chapter in HTML/XHTML: (href, text) of every <a href>.
std::vector<std::pair<std::string, std::string>> html_links(const std::string& page) {
  std::vector<std::pair<std::string, std::string>> out;
  static const std::regex a(R"re(<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>)re");
  for (std::sregex_iterator it(page.begin(), page.end(), a), end; it != end; ++it)
    out.emplace_back((*it)[1], (*it)[2]);
  return out;
}

std::set<std::string> html_ids(const std::string& page) {
  std::set<std::string> out;
  static const std::regex id(R"re(\sid="([^"]*)")re");
  for (std::sregex_iterator it(page.begin(), page.end(), id), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

class Outputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_ = fs::temp_directory_path() / ("bb-conventions-" + std::to_string(::getpid()));
    fs::remove_all(out_);
    for (const char* command : {"site", "epub", "latex"}) {
      auto r =
          test::run_bookbuild("--book '" + book().string() + "' --out '" + out_.string() + "' " + command);
      ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    }
  }
  static void TearDownTestSuite() { fs::remove_all(out_); }
  static fs::path book() { return test::fixtures().parent_path() / "filters" / "conventions"; }

  static std::string site_page(const std::string& edition, const std::string& chapter) {
    fs::path dir = out_ / "site";
    if (edition != "zh") dir /= edition;
    return test::read_file(dir / (chapter + ".html"));
  }
  static std::string epub_page(const std::string& edition, const std::string& chapter) {
    for (const auto& e : fs::directory_iterator(out_ / "epub")) {
      if (!e.path().string().ends_with("-" + edition + ".epub")) continue;
      std::string error;
      auto zip = epub::ZipReader::open(test::read_file(e.path()), error);
      if (!zip) return {};
      for (const auto& entry : zip->entries())
        if (entry.name.ends_with("/" + chapter + ".xhtml")) return zip->read(entry.name).value_or("");
    }
    return {};
  }
  static std::string latex_book(const std::string& edition) {
    std::string all;
    for (const auto& e : fs::recursive_directory_iterator(out_))
      if (e.path().extension() == ".tex" && e.path().string().find("/" + edition + "/") != std::string::npos)
        all += test::read_file(e.path());
    return all;
  }
  static fs::path out_;
};
fs::path Outputs::out_;

TEST_F(Outputs, SiteEpubAndLatexLinkEveryReferenceToTheSameTarget) {
  auto expected = expected_links(book() / "expected-links.txt");
  ASSERT_GE(expected.size(), 40u);
  for (const auto& x : expected) {
    SCOPED_TRACE(x.edition + " " + x.chapter + ": " + x.written);
    for (bool xhtml : {false, true}) {
      std::string page = xhtml ? epub_page(x.edition, x.chapter) : site_page(x.edition, x.chapter);
      ASSERT_FALSE(page.empty()) << (xhtml ? "EPUB" : "site") << " page missing";
      bool found = false;
      for (const auto& [href, text] : html_links(page))
        found = found ||
                (text == x.written && href.ends_with("#" + x.id) &&
                 href.find(x.target_chapter + (xhtml ? ".xhtml" : ".html")) != std::string::npos) ||
                (text == x.written && href == "#" + x.id && x.target_chapter == x.chapter);
      EXPECT_TRUE(found) << (xhtml ? "EPUB" : "site") << ": no link `" << x.written << "` to "
                         << x.target_chapter << "#" << x.id;
      std::string target =
          xhtml ? epub_page(x.edition, x.target_chapter) : site_page(x.edition, x.target_chapter);
      EXPECT_TRUE(html_ids(target).count(x.id)) << (xhtml ? "EPUB" : "site") << ": no id " << x.id;
    }
    std::string tex = latex_book(x.edition);
    std::string key = x.target_chapter + ":" + x.id;
    EXPECT_NE(tex.find("\\hyperref[" + key + "]{" + x.written + "}"), std::string::npos)
        << "LaTeX: no \\hyperref to " << key;
    EXPECT_NE(tex.find("\\label{" + key + "}"), std::string::npos) << "LaTeX: no \\label{" << key << "}";
  }
}

// Whatever link an output has, its target exists in that same output.
TEST_F(Outputs, EveryLinkTargetExistsInEachOutput) {
  for (const char* edition : {"zh", "en", "zh-tw", "ru"}) {
    SCOPED_TRACE(edition);
    std::string tex = latex_book(edition);
    static const std::regex ref(R"(\\hyperref\[([^\]]*)\])");
    int refs = 0;
    for (std::sregex_iterator it(tex.begin(), tex.end(), ref), end; it != end; ++it, ++refs)
      EXPECT_NE(tex.find("\\label{" + (*it)[1].str() + "}"), std::string::npos) << (*it)[1];
    EXPECT_GT(refs, 10);
    for (bool xhtml : {false, true}) {
      for (const char* chapter : {"preface", "ch01"}) {
        std::string page = xhtml ? epub_page(edition, chapter) : site_page(edition, chapter);
        for (const auto& [href, text] : html_links(page)) {
          auto hash = href.find('#');
          if (hash == std::string::npos || href.find("://") != std::string::npos) continue;
          std::string file = href.substr(0, hash);
          std::string other = file.empty() ? chapter : fs::path(file).stem().string();
          if (other != "preface" && other != "ch01") continue;
          std::string target = xhtml ? epub_page(edition, other) : site_page(edition, other);
          EXPECT_TRUE(html_ids(target).count(href.substr(hash + 1))) << (xhtml ? "EPUB " : "site ") << href;
        }
      }
    }
  }
}

}  // namespace
}  // namespace bb::filters
