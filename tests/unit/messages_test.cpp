// Messages that teach (issue 51): "did you mean" for commands, keys, labels, result fields and calc
// names; an unknown command named as such; a TOML syntax error with its fix; a chapter file no edition
// lists.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "new_book.hpp"
#include "text/suggest.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::NewBook;

TEST(Suggest, NearestNameWithinOneEditInThree) {
  const std::vector<std::string> commands = {"build", "site", "epub", "latex", "pdf", "check", "calc"};
  EXPECT_EQ(text::closest("chek", commands), "check");
  EXPECT_EQ(text::closest("ckeck", commands), "check");
  EXPECT_EQ(text::closest("cehck", commands), "check");  // two neighbours swapped: one edit
  EXPECT_EQ(text::closest("Site", commands), "site");
  EXPECT_EQ(text::closest("frobnicate", commands), std::nullopt);
  EXPECT_EQ(text::closest("xy", commands), std::nullopt);
  EXPECT_EQ(text::closest("check", commands), std::nullopt);  // the word itself is no suggestion
  EXPECT_EQ(text::closest("fig:output", {"fig:outputs", "tbl:outputs"}), "fig:outputs");
  EXPECT_EQ(text::closest("图:架构", {"图:加构", "表:架构"}), "图:加构");
  EXPECT_EQ(text::edit_distance("标记", "标签"), 1u);
  EXPECT_EQ(text::edit_distance("", "abc"), 3u);
  EXPECT_EQ(text::did_you_mean("qwen3-8", {"qwen3-32b", "qwen3-8b"}), " (did you mean `qwen3-8b`?)");
  EXPECT_EQ(text::did_you_mean("llama", {"qwen3-8b"}), "");
}

TEST(Messages, AnUnknownCommandIsNamedWithTheNearestOne) {
  auto r = test::run_bookbuild("chek");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "unknown command `chek` (did you mean `check`?)")) << r.err;
  EXPECT_FALSE(has(r.err, "A subcommand is required")) << r.err;
  r = test::run_bookbuild("-q --out /tmp/x frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "unknown command `frobnicate`; the commands are: build, site,")) << r.err;
  r = test::run_bookbuild("calc forwrd --model qwen3-8b");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "unknown command `forwrd` of `calc` (did you mean `forward`?)")) << r.err;
  // A known command's own arguments are not commands.
  r = test::run_bookbuild("completion bsh");
  EXPECT_FALSE(has(r.err, "unknown command")) << r.err;
}

TEST(Messages, MistypedKeysLabelsAndResultFieldsGetTheNearestName) {
  NewBook b;
  b.replace("book.toml", "authors =", "autors =");
  b.replace("manuscripts/01-first-steps.md", "@tbl:outputs lists", "@tbl:output lists");
  b.replace("manuscripts/01-first-steps.md", "total_packed_weight_bytes", "total_packed_weight_byte");
  auto r = b.run("check");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.err, "unknown key `autors` in [book] (did you mean `authors`?)")) << r.err;
  EXPECT_TRUE(has(r.err, "no target has the label `tbl:output` (did you mean `tbl:outputs`?)")) << r.err;
  EXPECT_TRUE(
      has(r.err, "has no field 'total_packed_weight_byte' (did you mean `total_packed_weight_bytes`?)"))
      << r.err;
}

TEST(Messages, AMistypedModelOrDeviceGetsTheNearestName) {
  NewBook b;
  auto r = b.run("calc forward --model qwen3-8 --tokens 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "unknown model 'qwen3-8' (did you mean `qwen3-8b`?)")) << r.err;
  r = b.run("calc roofline --device h100-sx --flops 33554432 --traffic-bytes 33570816");
  EXPECT_TRUE(has(r.err, "unknown device 'h100-sx' (did you mean `h100-sxm`?)")) << r.err;
}

TEST(Messages, ATomlSyntaxErrorSaysHowToWriteIt) {
  NewBook b;
  b.replace("book.toml", "lang = \"en\"", "lang = en-GB");
  auto r = b.run("check");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.err, "book.toml:12:8: error:")) << r.err;
  EXPECT_TRUE(has(r.err, "hint: text is quoted in TOML: write lang = \"en-GB\"")) << r.err;
}

TEST(Messages, AChapterFileNoEditionListsIsAWarningAtTheFile) {
  NewBook b;
  test::write_file(b.root / "manuscripts" / "02-draft.md", "# Draft\n\nNot listed yet.\n");
  test::write_file(b.root / "manuscripts" / "README.md", "Notes about this folder.\n");
  auto r = b.run("check");
  EXPECT_TRUE(has(r.err,
                  "manuscripts/02-draft.md: warning: this Markdown file is in an edition's folder but "
                  "not in its `chapters`"))
      << r.err;
  EXPECT_FALSE(has(r.err, "README.md")) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning: the book still builds
}

}  // namespace
}  // namespace bb
