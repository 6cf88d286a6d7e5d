// Code highlighting (builder/highlight): tokens that give back the code exactly, the kinds a reader
// sees coloured, and plain text for a language Source-highlight does not know.
#include "highlight/highlight.hpp"

#include <gtest/gtest.h>

namespace bb::highlight {
namespace {

std::string joined(const std::vector<Token>& tokens) {
  std::string s;
  for (const auto& t : tokens) s += t.text;
  return s;
}

std::string text_of(const std::vector<Token>& tokens, const std::string& kind) {
  std::string s;
  for (const auto& t : tokens)
    if (t.kind == kind) s += t.text + "|";
  return s;
}

TEST(Highlight, PythonKeywordsStringsCommentsAndNumbers) {
  const std::string code = "# weights\nfor n in range(8):\n    print(f\"{n * 2} GB\")  # twice\n";
  auto t = tokens("python", code);
  ASSERT_TRUE(t);
  EXPECT_EQ(joined(*t), code);
  EXPECT_EQ(text_of(*t, "comment"), "# weights|# twice|");
  EXPECT_NE(text_of(*t, "keyword").find("for"), std::string::npos);
  EXPECT_NE(text_of(*t, "keyword").find("in"), std::string::npos);
  EXPECT_NE(text_of(*t, "string").find("GB"), std::string::npos);
  EXPECT_EQ(text_of(*t, "number"), "8|");  // the 2 is inside the f-string
}

TEST(Highlight, AliasesAndInfoStringsWithAttributes) {
  auto cpp = tokens("c++ {#lst:x}", "int main() { return 0; } // done\n");
  ASSERT_TRUE(cpp);
  EXPECT_EQ(text_of(*cpp, "type"), "int|");
  EXPECT_EQ(text_of(*cpp, "comment"), "// done|");
  auto sh = tokens("Bash", "echo \"$HOME\" # home\n");
  ASSERT_TRUE(sh);
  EXPECT_EQ(text_of(*sh, "comment"), "# home|");
}

TEST(Highlight, EachBlockStartsFresh) {
  // An unclosed string in one block must not colour the next.
  ASSERT_TRUE(tokens("python", "s = \"\"\"never closed\n"));
  auto t = tokens("python", "x = 1\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(text_of(*t, "string"), "");
  EXPECT_EQ(text_of(*t, "number"), "1|");
}

TEST(Highlight, UnknownOrNoLanguageIsPlainText) {
  EXPECT_FALSE(tokens("no-such-language", "x"));
  EXPECT_FALSE(tokens("", "x"));
}

TEST(Highlight, EveryKindHasAStyleOrIsPlain) {
  auto t = tokens("cpp", "#include <x>\nclass A { int f(); }; // \"s\" 1\n");
  ASSERT_TRUE(t);
  for (const auto& tok : *t) {
    if (!tok.kind.empty()) {
      EXPECT_NE(style_of(tok.kind), nullptr) << tok.kind;
    }
  }
  EXPECT_EQ(style_of(""), nullptr);
}

}  // namespace
}  // namespace bb::highlight
