// The LaTeX book around the writer: XeLaTeX log reading, error mapping to manuscript lines, SVG
// conversion, and book assembly from the templates.
#include <poppler-document.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "book/book.hpp"
#include "book/output_names.hpp"
#include "filters/pipeline.hpp"
#include "test_support.hpp"
#include "typeset/book_tex.hpp"
#include "typeset/log_report.hpp"
#include "typeset/svg.hpp"
#include "typeset/tex_log.hpp"
#include "typeset/xelatex.hpp"

namespace bb::typeset {
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
  EXPECT_EQ(log.undefined_references[0].label, "ch04:fig-4-9");
  EXPECT_EQ(log.undefined_references[0].line, 301);
  EXPECT_FALSE(log.rerun);
  EXPECT_TRUE(parse_tex_log(test::read_file(latex_fixtures() / "rerun.log")).rerun);
}

TEST(TexLog, ReadsOverfullBoxesAndUndefinedReferencesWithTheirFiles) {
  auto log = parse_tex_log(test::read_file(latex_fixtures() / "overfull.log"));
  ASSERT_EQ(log.overfull_boxes.size(), 5u);
  const OverfullBox& toc = log.overfull_boxes[0];
  EXPECT_EQ(toc.file, "./book.toc");  // the parentheses of the box's text are not files
  EXPECT_EQ(toc.first_line, 12);
  EXPECT_DOUBLE_EQ(toc.points, 7.5);
  const OverfullBox& hair = log.overfull_boxes[1];
  EXPECT_EQ(hair.file, "./book.tex");
  EXPECT_EQ(hair.first_line, 120);
  EXPECT_EQ(hair.last_line, 123);
  EXPECT_EQ(log.overfull_boxes[2].first_line, 140);  // `detected at line`: a display
  EXPECT_DOUBLE_EQ(log.overfull_boxes[2].points, 155.8);
  EXPECT_EQ(log.overfull_boxes[3].first_line, 150);  // `in alignment`: a table
  EXPECT_TRUE(log.overfull_boxes[4].vertical);
  EXPECT_EQ(log.overfull_boxes[4].first_line, 0);
  ASSERT_EQ(log.undefined_references.size(), 2u);
  EXPECT_EQ(log.undefined_references[0].label, "ch04:fig-4-9");
  EXPECT_EQ(log.undefined_references[0].line, 171);
  EXPECT_EQ(log.undefined_references[1].label, "ch01:ex-1-1");  // \hyperref's own wording
  EXPECT_EQ(log.undefined_references[1].file, "./book.tex");
  EXPECT_EQ(log.undefined_references[1].line, 180);
}

TEST(LayoutProblems, AreReportedAtTheManuscriptLineOverTheTolerance) {
  std::vector<writers::SourceMark> marks = {{118, {"manuscripts/04.md", 30, 1}},
                                            {140, {"manuscripts/04.md", 41, 1}},
                                            {150, {"manuscripts/04.md", 50, 1}},
                                            {171, {"manuscripts/04.md", 60, 1}},
                                            {180, {"manuscripts/04.md", 70, 1}}};
  auto log = parse_tex_log(test::read_file(latex_fixtures() / "overfull.log"));
  Diagnostics d;
  EXPECT_EQ(report_layout_problems(log, marks, "/out/latex/zh/book.tex", Severity::Warning, d), 6);
  std::vector<std::string> got;
  for (const auto& x : d.all())
    got.push_back((x.severity == Severity::Error ? "error " : "warning ") + x.loc.path.generic_string() +
                  ":" + std::to_string(x.loc.line));
  // 3.2 pt is within the tolerance; the TOC's box is reported at book.toc, the page at book.tex.
  std::sort(got.begin(), got.end());
  std::vector<std::string> want = {"error manuscripts/04.md:60",   "error manuscripts/04.md:70",
                                   "warning ./book.toc:12",        "warning manuscripts/04.md:41",
                                   "warning manuscripts/04.md:50", "warning /out/latex/zh/book.tex:0"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  Diagnostics strict;
  report_layout_problems(log, marks, "/out/latex/zh/book.tex", Severity::Error, strict);
  EXPECT_EQ(strict.error_count(), 6u);
}

TEST(LayoutProblems, SourceMapIsReadBack) {
  auto dir = fs::temp_directory_path() / ("bb-srcmap-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  test::write_file(dir / "book.srcmap", "12\tmanuscripts/第1章.md:3\n40\tbook-en/ch1.md:17\nbroken line\n");
  auto marks = read_srcmap(dir / "book.srcmap", "/book");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[1].line, 40);
  EXPECT_EQ(marks[1].loc.path, fs::path("/book/book-en/ch1.md"));
  EXPECT_EQ(marks[1].loc.line, 17);
  EXPECT_TRUE(read_srcmap(dir / "missing.srcmap", "/book").empty());
  fs::remove_all(dir);
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
  // The same SVG gives the same bytes (no time of conversion in the PDF), a second later too.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(svg_to_pdf(test::fixtures() / "books/mini/manuscripts/img/bw.svg", dir / "again.pdf"), "");
  EXPECT_EQ(test::read_file(dir / "again.pdf"), test::read_file(pdf));
  EXPECT_NE(svg_to_pdf(latex_fixtures() / "blocks.md", dir / "bad.pdf"), "");
  fs::remove_all(dir);
}

TEST(Svg, CachedConversionFollowsTheSvgAndSurvivesAMissingEntry) {
  test::TempDir t;
  fs::path svg = t.path / "a.svg";
  fs::copy_file(test::fixtures() / "books/mini/manuscripts/img/bw.svg", svg);
  fs::path cache = t.path / "cache";
  fs::create_directories(t.path / "out");
  ASSERT_EQ(svg_to_pdf_cached(svg, t.path / "out/1.pdf", cache), "");
  // The second time (the memo knows the SVG) gives the same entry.
  ASSERT_EQ(svg_to_pdf_cached(svg, t.path / "out/2.pdf", cache), "");
  EXPECT_TRUE(fs::equivalent(t.path / "out/1.pdf", t.path / "out/2.pdf"));
  // An entry removed from the cache is converted again, not reported.
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(cache))
    if (e.path().extension() == ".pdf") entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  fs::remove(entries[0]);
  ASSERT_EQ(svg_to_pdf_cached(svg, t.path / "out/2.pdf", cache), "");
  EXPECT_TRUE(fs::is_regular_file(entries[0]));
  // An edited SVG gets its own entry.
  std::string text = test::read_file(svg);
  test::write_file(svg, text + "<!-- edited -->\n");
  ASSERT_EQ(svg_to_pdf_cached(svg, t.path / "out/3.pdf", cache), "");
  EXPECT_FALSE(fs::equivalent(t.path / "out/2.pdf", t.path / "out/3.pdf"));
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
  EXPECT_EQ(book::output_file(b.config, b.editions[0].edition, ".pdf"), "mini-zh.pdf");
  fs::remove_all(dir);
}

// Every \\hyperref[X] of a LaTeX text whose label X the text does not define (LaTeX would report a
// reference to a label that does not exist).
std::vector<std::string> dangling_references(const std::string& tex) {
  std::vector<std::string> out;
  for (std::size_t at = 0; (at = tex.find("\\hyperref[", at)) != std::string::npos;) {
    at += 10;
    const std::string label = tex.substr(at, tex.find(']', at) - at);
    if (tex.find("\\label{" + label + "}") == std::string::npos) out.push_back(label);
  }
  return out;
}

// `pdf --chapter N` writes one chapter of a book resolved whole (cli/pdf.cpp): its references to the
// chapters left out are their text, linked to the site when the book has a site-url, never a
// \\hyperref to a label the sample does not have.
TEST(LatexBook, ASampleChapterLinksTheChaptersItLeavesOutToTheSite) {
  for (const bool site : {true, false}) {
    Diagnostics d;
    auto config = book::load_config(test::fixtures() / "books/mini", d);
    ASSERT_TRUE(config);
    if (!site) config->site_url.clear();
    auto b = book::load_book(*config, d, {"zh"});
    filters::resolve(b, d);
    ASSERT_FALSE(d.has_errors());
    const book::EditionBook& whole = b.editions[0];
    auto dir = fs::temp_directory_path() / ("bb-latexsample-" + std::to_string(::getpid()));
    std::size_t references_out = 0;
    for (const auto& chapter : whole.chapters) {
      book::EditionBook sample{whole.edition, {chapter}, std::nullopt};
      const std::string tex = test::read_file(write_latex_book(b, sample, dir, d).tex);
      EXPECT_FALSE(d.has_errors());
      EXPECT_EQ(dangling_references(tex), std::vector<std::string>{}) << chapter.key;
      for (const auto& other : whole.chapters) {
        if (other.key == chapter.key) continue;
        const std::string page = b.config.site_url + other.key + ".html";
        const bool linked = tex.find("\\href{" + page) != std::string::npos;
        EXPECT_EQ(linked && !site, false) << "a link to the site of a book without one: " << page;
        references_out += linked;
      }
      fs::remove_all(dir);
    }
    // The preface names chapter 1 (第 1 章): with a site-url, that reference leads to its page.
    if (site) {
      EXPECT_GT(references_out, 0u);
    }
  }
}

// `bookbuild latex` leaves an edition's folder alone when it already holds what the build would write
// (no folder written aside and swapped in); anything that makes it differ (a figure that is now
// another file, a stray file, a changed chapter) gets the folder written again, as a clean build's.
TEST(LatexFolder, AnUnchangedFolderIsLeftAloneAndAnyDifferenceWritesItAgain) {
  test::TempDir t("bb-latex-folder");
  const fs::path book = t.path / "book", out = t.path / "out";
  fs::copy(test::fixtures() / "books/mini", book, fs::copy_options::recursive);
  const fs::path png = book / "manuscripts/img/a.png";
  fs::copy_file(test::fixtures() / "../hostile/image-good-figures/book/m/img/a.png", png);
  const fs::path chapter = book / "manuscripts/01-带宽.md";
  test::write_file(chapter, test::read_file(chapter) + "\n![位图](img/a.png)\n");
  auto build = [&](const fs::path& o) {
    auto r = test::run_command("'" BOOKBUILD_EXE "' --book '" + book.string() + "' --out '" + o.string() +
                               "' -q latex --edition zh");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return o / "latex" / "zh";
  };
  auto inode = [](const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st.st_ino;
  };
  auto files = [](const fs::path& dir) {
    std::map<std::string, std::string> all;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) all[fs::relative(e.path(), dir).generic_string()] = test::read_file(e.path());
    return all;
  };
  auto clean = [&] {
    fs::remove_all(t.path / "clean");
    return files(build(t.path / "clean"));
  };

  const fs::path folder = build(out);
  ASSERT_TRUE(fs::is_regular_file(folder / "figures/001-bw.pdf"));
  ASSERT_TRUE(fs::is_regular_file(folder / "figures/002-a.png"));
  const auto first = inode(folder);
  build(out);
  EXPECT_EQ(inode(folder), first) << "the folder already held this build: left alone";
  // TeX's carried-over files do not count as a difference, and stay.
  test::write_file(folder / "book.aux", "\\relax\n");
  build(out);
  EXPECT_EQ(inode(folder), first);
  EXPECT_EQ(test::read_file(folder / "book.aux"), "\\relax\n");

  // The PNG is now another file (with the same bytes): the folder is written again, linking it.
  fs::copy_file(png, t.path / "a.png");
  fs::remove(png);
  fs::rename(t.path / "a.png", png);
  build(out);
  EXPECT_NE(inode(folder), first);
  EXPECT_EQ(inode(folder / "figures/002-a.png"), inode(png));
  EXPECT_EQ(test::read_file(folder / "book.aux"), "\\relax\n") << "carried over into the new folder";

  // A stray file, or a log left by TeX: written again, without it.
  const auto second = inode(folder);
  test::write_file(folder / "notes.txt", "mine\n");
  build(out);
  EXPECT_NE(inode(folder), second);
  EXPECT_FALSE(fs::exists(folder / "notes.txt"));

  // A changed chapter: the folder a clean build writes (TeX's carried-over file aside).
  test::write_file(chapter, test::read_file(chapter) + "\n又一段。\n");
  build(out);
  fs::remove(folder / "book.aux");
  EXPECT_EQ(files(folder), clean());
  EXPECT_NE(test::read_file(folder / "book.tex").find("又一段"), std::string::npos);
}

}  // namespace
}  // namespace bb::typeset
