// The LaTeX book around the writer: XeLaTeX log reading, error mapping to manuscript lines, SVG
// conversion, and book assembly from the templates.
#include <poppler-document.h>

#include <memory>

#include "book/book.hpp"
#include "filters/pipeline.hpp"
#include "latex/book_tex.hpp"
#include "latex/svg.hpp"
#include "latex/tex_log.hpp"
#include "latex/xelatex.hpp"
#include "test_support.hpp"

namespace bb::latex {
namespace {

namespace fs = std::filesystem;

fs::path latex_fixtures() {
  return BOOKBUILD_LATEX_FIXTURES;
}

TEST(TexLog, ReadsErrorsMissingCharactersAndUndefinedReferences) {
  auto log = parse_tex_log(test::read_file(latex_fixtures() / "error.log"));
  ASSERT_EQ(log.errors.size(), 1u);
  EXPECT_EQ(log.errors[0].file, "./book.tex");
  EXPECT_EQ(log.errors[0].line, 710);
  EXPECT_EQ(log.errors[0].message, "Undefined control sequence.");
  EXPECT_TRUE(log.errors[0].context.starts_with("l.710 读取")) << log.errors[0].context;
  ASSERT_EQ(log.missing_characters.size(), 1u);
  EXPECT_NE(log.missing_characters[0].find("U+2713"), std::string::npos);
  ASSERT_EQ(log.undefined_references.size(), 1u);
  EXPECT_EQ(log.undefined_references[0], "ch04:fig-4-9");
  EXPECT_FALSE(log.rerun);
  EXPECT_TRUE(parse_tex_log(test::read_file(latex_fixtures() / "rerun.log")).rerun);
}

TEST(TexLog, ClassicBangErrorsUseTheContextLine) {
  auto log =
      parse_tex_log("! LaTeX Error: File `x.sty' not found.\n\nType X to quit.\n\nl.12 \\usepackage{x}\n");
  ASSERT_EQ(log.errors.size(), 1u);
  EXPECT_EQ(log.errors[0].line, 12);
  EXPECT_EQ(log.errors[0].message, "LaTeX Error: File `x.sty' not found.");
}

TEST(TexErrors, AreReportedAtTheManuscriptLine) {
  std::vector<writers::SourceMark> marks = {{700, {"manuscripts/04.md", 1119, 1}},
                                            {710, {"manuscripts/04.md", 1121, 1}},
                                            {715, {"manuscripts/04.md", 1125, 1}}};
  auto log = parse_tex_log(test::read_file(latex_fixtures() / "error.log"));
  Diagnostics d;
  report_tex_errors(log, marks, "/out/latex/zh/book.tex", d);
  auto all = d.all();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].loc.path, fs::path("manuscripts/04.md"));
  EXPECT_EQ(all[0].loc.line, 1121);
  EXPECT_NE(all[0].message.find("Undefined control sequence."), std::string::npos);
  EXPECT_NE(all[0].message.find("book.tex:710"), std::string::npos) << all[0].message;
}

TEST(Svg, ConvertsToAOnePagePdf) {
  auto dir = fs::temp_directory_path() / ("bb-svg-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path pdf = dir / "bw.pdf";
  EXPECT_EQ(svg_to_pdf(test::fixtures() / "books/mini/manuscripts/img/bw.svg", pdf), "");
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(pdf.string()));
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->pages(), 1);
  EXPECT_NE(svg_to_pdf(latex_fixtures() / "blocks.md", dir / "bad.pdf"), "");
  fs::remove_all(dir);
}

TEST(LatexBook, IsSelfContainedWithFiguresAndASourceMap) {
  Diagnostics d;
  auto config = book::load_config(test::fixtures() / "books/mini", d);
  ASSERT_TRUE(config);
  auto b = book::load_book(*config, d, {"zh"});
  ASSERT_FALSE(d.has_errors());
  auto dir = fs::temp_directory_path() / ("bb-latexbook-" + std::to_string(::getpid()));
  filters::resolve(b, d);
  auto result = write_latex_book(b, b.editions[0], dir, d);
  EXPECT_FALSE(d.has_errors());
  std::string tex = test::read_file(result.tex);
  EXPECT_TRUE(tex.starts_with("% bookbuild latex --edition zh")) << tex.substr(0, 80);
  EXPECT_NE(tex.find("{ctexbook}"), std::string::npos);
  EXPECT_NE(tex.find("\\hypersetup{"), std::string::npos);
  EXPECT_NE(tex.find("\\tableofcontents"), std::string::npos);
  EXPECT_NE(tex.find("\\bbgraphic{figures/001-bw.pdf}"), std::string::npos);
  EXPECT_EQ(tex.find("{{"), std::string::npos) << "a template slot was left unfilled";
  EXPECT_TRUE(fs::exists(dir / "figures/001-bw.pdf"));
  // The source map sends the figure's line back to the manuscript.
  auto pos = tex.find("\\bbgraphic{figures/001-bw.pdf}");
  int line = 1 + static_cast<int>(std::count(tex.begin(), tex.begin() + static_cast<long>(pos), '\n'));
  auto loc = writers::map_line(result.marks, line);
  EXPECT_EQ(loc.path.filename(), fs::path("01-带宽.md"));
  EXPECT_EQ(loc.line, 11);
  EXPECT_EQ(pdf_file_name(b.config, b.editions[0].edition), "mini-zh.pdf");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bb::latex
