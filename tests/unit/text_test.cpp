// The text utilities every module shares (builder/text): scripts and widths from ICU, UTF-8,
// XML and JSON escaping, URL classification.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "diag/diagnostics.hpp"
#include "text/escape.hpp"
#include "text/unicode.hpp"
#include "text/url.hpp"

namespace bb::text {
namespace {

TEST(TextScripts, CjkIncludesPunctuationAndFullWidthForms) {
  for (char32_t c : {U'计', U'算', U'か', U'カ', U'한', U'ᄀ', U'ㄅ', U'，', U'。', U'「', U'Ｇ', U'𠀀'})
    EXPECT_TRUE(is_cjk(c)) << "U+" << std::hex << static_cast<unsigned>(c);
  for (char32_t c : {U'a', U'é', U'ж', U'α', U'—', U'→', U'∑', U' '})
    EXPECT_FALSE(is_cjk(c)) << "U+" << std::hex << static_cast<unsigned>(c);
}

TEST(TextScripts, CjkLettersExcludePunctuation) {
  for (char32_t c : {U'计', U'か', U'カ', U'ー', U'々', U'〇', U'한', U'ᄀ', U'ㄅ', U'𠀀'})
    EXPECT_TRUE(is_cjk_letter(c)) << "U+" << std::hex << static_cast<unsigned>(c);
  for (char32_t c : {U'，', U'。', U'「', U'、', U'a', U'ж', U'１'})
    EXPECT_FALSE(is_cjk_letter(c)) << "U+" << std::hex << static_cast<unsigned>(c);
}

TEST(TextWidth, EastAsianWidthFromIcu) {
  EXPECT_EQ(display_width("abc"), 3);
  EXPECT_EQ(display_width("计算"), 4);
  EXPECT_EQ(display_width("，"), 2);
  EXPECT_EQ(display_width("—→"), 2);       // three UTF-8 bytes each, one column each
  EXPECT_EQ(display_width("e\u0301"), 1);  // a combining mark takes no column
  EXPECT_EQ(display_width("жж"), 2);
}

TEST(TextUtf8, MalformedInputDecodesToReplacementOneByteAtATime) {
  std::size_t length = 0;
  EXPECT_EQ(decode_utf8("\xE8\xAE", 0, length), U'\uFFFD');  // truncated
  EXPECT_EQ(length, 1u);
  EXPECT_EQ(decode_utf8("\xC0\xAF", 0, length), U'\uFFFD');      // overlong '/'
  EXPECT_EQ(decode_utf8("\xED\xA0\x80", 0, length), U'\uFFFD');  // a surrogate
  EXPECT_EQ(decode_utf8("计", 0, length), U'计');
  EXPECT_EQ(length, 3u);
  EXPECT_EQ(to_utf8(to_utf32("a计𠀀")), "a计𠀀");
  std::size_t bad = 0;
  EXPECT_FALSE(valid_utf8("ok\xFF", &bad));
  EXPECT_EQ(bad, 2u);
}

TEST(TextEscape, XmlEscapesTheFiveSpecials) {
  EXPECT_EQ(escape_xml(R"(<a href="x">'&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(escape_xml("计算"), "计算");
}

// The specials are found sixteen bytes at a time: each one, at every offset of a text longer than one
// block, next to multi-byte characters, is escaped as a byte-by-byte escape would.
TEST(TextEscape, XmlEscapesSpecialsAtEveryOffset) {
  const std::string specials = "&<>\"'";
  const std::string entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
  for (std::size_t k = 0; k < specials.size(); ++k)
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text = "计算ab计算cd计算ef计算gh计算ij计算kl";  // 48 bytes
      text.insert(at, 1, specials[k]);
      std::string want = text;
      want.replace(at, 1, entities[k]);
      EXPECT_EQ(escape_xml(text), want) << at;
      EXPECT_EQ(escape_xml(text + text), want + want) << at;
    }
  EXPECT_EQ(escape_xml(""), "");
  EXPECT_EQ(escape_xml(std::string(33, '<')), [] {
    std::string s;
    for (int i = 0; i < 33; ++i) s += "&lt;";
    return s;
  }());
}

// What a terminal would act on is shown escaped in diagnostics: C0 controls and DEL, C1 controls, and
// the bidirectional overrides; text around them (CJK, the U+2xxx arrows and dashes that share a
// lead byte with the overrides, Latin-1 letters sharing one with C1) is kept, and tabs on request.
TEST(TextEscape, ControlsAreEscapedAndTheTextAroundThemKept) {
  EXPECT_EQ(bb::escape_controls("plain 计算 text"), "plain 计算 text");
  EXPECT_EQ(bb::escape_controls("a\x1B[2Jb\x7F"), "a\\x1B[2Jb\\x7F");
  EXPECT_EQ(bb::escape_controls("\xC2\x9B"
                                "31m \xC2\xA0\xC3\xA9"),
            "\\u009B31m \xC2\xA0\xC3\xA9");
  EXPECT_EQ(bb::escape_controls("\u202Eevil\u2066x\u2069 \u2192 \u2014"),
            "\\u202Eevil\\u2066x\\u2069 \u2192 \u2014");
  EXPECT_EQ(bb::escape_controls("a\tb"), "a\\x09b");
  EXPECT_EQ(bb::escape_controls("a\tb", true), "a\tb");
  EXPECT_EQ(bb::escape_controls("\xC2"), "\xC2");  // a lone lead byte at the end
  EXPECT_EQ(bb::escape_controls(""), "");
}

TEST(TextEscape, JsonStringsRoundTripThroughAParser) {
  const std::string tricky =
      std::string("quote \" backslash \\ newline \n tab \t nul ") + '\0' + " 计算 \x01";
  const std::string quoted = json_quote(tricky);
  EXPECT_EQ(nlohmann::json::parse(quoted).get<std::string>(), tricky);
  EXPECT_NE(quoted.find("计算"), std::string::npos);  // UTF-8 is written as is
  EXPECT_NE(quoted.find("\\u0001"), std::string::npos);
  // Invalid UTF-8 does not throw: it is replaced.
  EXPECT_EQ(nlohmann::json::parse(json_quote("a\xFF")).get<std::string>(), "a\uFFFD");
}

// append_json_quoted skips nlohmann-json when only `"` and `\` need escapes: same bytes either way.
TEST(TextEscape, AppendedJsonEqualsTheLibrarys) {
  for (std::string s :
       {std::string(""), std::string("plain"), std::string(R"(a "b" \c\ "")"),
        std::string("计算 \"单元\" \x7F é"), std::string("tab\there"), std::string("nul ") + '\0',
        std::string("bad \xC3("), std::string("\\\\\""), std::string("\"\xE8\xAE\xA1")}) {
    std::string out = "[";
    append_json_quoted(out, s);
    EXPECT_EQ(out, "[" + json_quote(s)) << s;
  }
}

TEST(TextUrl, ClassifiesWhatABrowserWouldRun) {
  EXPECT_EQ(classify_url(""), UrlKind::Empty);
  EXPECT_EQ(classify_url("#x"), UrlKind::Fragment);
  EXPECT_EQ(classify_url("figures/a.svg"), UrlKind::Relative);
  EXPECT_EQ(classify_url("/x"), UrlKind::RootRelative);
  EXPECT_EQ(classify_url("//host/x"), UrlKind::External);
  EXPECT_EQ(classify_url("HTTPS://example.org"), UrlKind::External);
  EXPECT_EQ(classify_url("data:image/png;base64,AA"), UrlKind::Data);
  EXPECT_EQ(classify_url(" java\tscript:alert(1)"), UrlKind::Script);
  EXPECT_EQ(classify_url("VBScript:x"), UrlKind::Script);
}

}  // namespace
}  // namespace bb::text
