// A book's print look from book.toml (docs/configuration.md, "Print look"): its fonts in place of the
// language's, a cover, and `check pdf`'s rules on embedded fonts. The LaTeX and the errors are checked
// without XeLaTeX (fast); the PDF itself, read back with Poppler, with it (external).
#include <gtest/gtest.h>
#include <poppler-document.h>
#include <poppler-font.h>
#include <poppler-page.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <regex>

#include "book/config.hpp"
#include "check/pdf_check.hpp"
#include "test_support.hpp"
#include "typeset/fonts.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::run_bookbuild;
using test::TempDir;

const fs::path kThemed = fs::path(BOOKBUILD_SOURCE_DIR) / "tests/dropin/fixtures/themed";

// A copy of the themed book, each `from` in its book.toml replaced by its `to`.
void copy_themed(const fs::path& to_dir, const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  fs::copy(kThemed, to_dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::string toml = read_file(kThemed / "book.toml");
  for (const auto& [from, to] : edits) {
    const auto at = toml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    toml.replace(at, from.size(), to);
  }
  test::write_file(to_dir / "book.toml", toml);
}

test::RunResult run(const fs::path& book, const fs::path& out, const std::string& command) {
  return run_bookbuild("--book '" + book.string() + "' --out '" + out.string() + "' " + command);
}

TEST(PrintLook, FontsAndCoverReachTheLatex) {
  TempDir out("out");
  auto r = run(kThemed, out.path, "latex");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string tex = read_file(out.path / "latex/en/book.tex");
  // Replaced where the language sets them, with the language's options kept.
  EXPECT_NE(tex.find("\\setmainfont{DejaVu Serif}\n"), std::string::npos);
  EXPECT_NE(tex.find("\\setmonofont{DejaVu Sans Mono}[Scale=MatchLowercase]"), std::string::npos);
  EXPECT_EQ(tex.find("\\setmainfont{Noto Serif}"), std::string::npos);
  EXPECT_NE(tex.find("\\setsansfont{Noto Sans}"), std::string::npos);  // not named: the language's
  // The cover before the title page, its file beside the figures.
  const auto cover = tex.find("\\includepdf[pages=1]{figures/cover.png}");
  ASSERT_NE(cover, std::string::npos);
  EXPECT_LT(cover, tex.find("\\begin{titlepage}"));
  EXPECT_LT(tex.find("\\usepackage{pdfpages}"), tex.find("\\begin{document}"));
  EXPECT_EQ(read_file(out.path / "latex/en/figures/cover.png"),
            read_file(kThemed / "manuscripts/print-cover.png"));
}

TEST(PrintLook, ATexCoverIsReadInAndFontsTheLanguageLacksAreAdded) {
  TempDir book("book");
  copy_themed(book.path,
              {{"pdf-cover = \"print-cover.png\"", "pdf-cover = \"templates/cover.tex\""},
               {"main = \"DejaVu Serif\"", "main = \"DejaVu Serif\"\ncjk = \"Noto Serif CJK JP\""}});
  test::write_file(book.path / "templates/cover.tex", "\\begin{titlepage}COVER\\end{titlepage}\n");
  TempDir out("out");
  auto r = run(book.path, out.path, "latex");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string tex = read_file(out.path / "latex/en/book.tex");
  EXPECT_NE(tex.find("\\input{figures/cover.tex}"), std::string::npos);
  EXPECT_EQ(tex.find("pdfpages"), std::string::npos);
  // English loads xeCJK already: the CJK font replaces the language's.
  EXPECT_NE(tex.find("\\setCJKmainfont{Noto Serif CJK JP}[AutoFakeSlant]"), std::string::npos);
}

TEST(PrintLook, MistakesAreErrorsAtTheirLines) {
  TempDir book("book");
  test::write_file(book.path / "manuscripts/chapter01.md", "# One\n\nText.\n");
  test::write_file(book.path / "manuscripts/cover.gif", "GIF89a");
  test::write_file(book.path / "book.toml",
                   "[book]\ntitle = \"T\"\n\n"
                   "[[edition]]\nid = \"en\"\nlang = \"en\"\nfolder = \"manuscripts\"\n"
                   "chapters = [\"chapter01.md\"]\n"
                   "pdf-cover = \"cover.gif\"\n"
                   "[edition.fonts]\n"
                   "main = \"Evil}\\\\input{x}\"\n"
                   "sans = 3\n"
                   "serif = \"DejaVu Serif\"\n"
                   "\n[pdf]\nfonts-required = \"DejaVu Serif\"\n");
  TempDir out("out");
  auto r = run(book.path, out.path, "latex");
  EXPECT_NE(r.exit_code, 0);
  const std::string toml = "book.toml";
  EXPECT_NE(r.err.find(toml + ":9:13: error: pdf-cover `cover.gif` must be a PDF, PNG or JPEG"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(toml + ":11:8: error: font name `Evil}\\input{x}` holds characters"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(toml + ":12:8: error: `sans` must be a font family name"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(toml + ":13:9: warning: unknown key `serif`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(toml + ":16:18: error: `fonts-required` must be an array"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(out.path / "latex/en/book.tex"));
}

TEST(PrintLook, ACoverOutsideTheBookIsRefused) {
  TempDir outside("outside");
  test::write_file(outside.path / "c.png", "x");
  TempDir book("book");
  copy_themed(book.path, {{"pdf-cover = \"print-cover.png\"",
                           "pdf-cover = \"" + (outside.path / "c.png").string() + "\""}});
  TempDir out("out");
  auto r = run(book.path, out.path, "latex");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("book.toml:13:13: error: pdf-cover"), std::string::npos) << r.err;
}

TEST(PrintLook, FontsAreLookedUpAsFontconfigNamesThem) {
  // fonts-dejavu-core is installed with bookbuild's dependencies (scripts/install-deps.sh).
  EXPECT_TRUE(typeset::font_installed("DejaVu Serif"));
  EXPECT_TRUE(typeset::font_installed("dejavu serif"));
  EXPECT_TRUE(typeset::font_installed("DejaVuSerif"));  // its PostScript name
  EXPECT_FALSE(typeset::font_installed("DejaVu Serif Nonesuch"));
  EXPECT_FALSE(typeset::font_installed(""));
}

TEST(PrintLook, AFontNotInstalledStopsThePdfBeforeXeLaTeX) {
  TempDir book("book");
  copy_themed(book.path, {{"main = \"DejaVu Serif\"", "main = \"Nonesuch Garamond\""}});
  TempDir out("out");
  auto r = run(book.path, out.path, "pdf");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("book.toml:16:8: error: font `Nonesuch Garamond` is not installed"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(out.path / "latex/en/book.log")) << "XeLaTeX ran";
  EXPECT_FALSE(fs::exists(out.path / "pdf"));
}

TEST(PrintLook, FontRulesMatchEmbeddedNamesLoosely) {
  check::PdfExpectations expect;
  const SourceLoc rule{fs::path("book.toml"), 3, 5};
  expect.fonts_required = {{"DejaVu Serif", rule}, {"Noto Serif CJK", rule}};
  expect.fonts_forbidden = {{"Noto Sans Mono", rule}};
  Diagnostics d;
  check::check_font_rules({"ABCDEF+DejaVuSerif-Bold", "QWERTY+NotoSansMonoCJKsc-Regular", "LMRoman10"},
                          expect, {fs::path("x.pdf"), 0, 0}, d);
  ASSERT_EQ(d.error_count(), 2u);
  std::string all;
  for (const auto& m : d.all()) all += m.message + "\n";
  EXPECT_NE(all.find("font `Noto Serif CJK` (required at book.toml:3:5) is not embedded; the PDF embeds: "
                     "DejaVuSerif-Bold, LMRoman10, NotoSansMonoCJKsc-Regular"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("font `QWERTY+NotoSansMonoCJKsc-Regular` is embedded, but book.toml:3:5 forbids "
                     "`Noto Sans Mono`"),
            std::string::npos)
      << all;
}

// External: XeLaTeX. The cover is the PDF's first page; the fonts are those book.toml names, and
// `check pdf` holds the PDF to book.toml's rules.
TEST(PrintLookPdf, CoverAndFontsAreThoseOfBookToml) {
  TempDir book("book");
  copy_themed(book.path);
  TempDir out("out");
  auto r = run(book.path, out.path, "--quiet pdf");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::path pdf;  // <book folder>-en.pdf
  for (const auto& f : fs::directory_iterator(out.path / "pdf")) pdf = f.path();
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(pdf.string()));
  ASSERT_TRUE(doc);
  ASSERT_GE(doc->pages(), 3);
  // The cover (an image: no text) first, its blank back, then the title page.
  auto text_of = [&](int i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    const auto t = page->text().to_utf8();
    std::string s(t.begin(), t.end());
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
  };
  EXPECT_EQ(text_of(0), "");
  EXPECT_EQ(text_of(1), "");  // no page number on the cover's back
  EXPECT_NE(text_of(2).find("ThemedBook"), std::string::npos) << text_of(2);
  std::unique_ptr<poppler::page> cover(doc->create_page(0)), title(doc->create_page(2));
  EXPECT_EQ(cover->page_rect().width(), title->page_rect().width());
  EXPECT_EQ(cover->page_rect().height(), title->page_rect().height());
  bool dejavu_serif = false;
  for (const auto& f : doc->fonts()) {
    EXPECT_EQ(f.name().find("NotoSerif-"), std::string::npos) << f.name();
    if (f.name().find("DejaVuSerif") != std::string::npos) dejavu_serif = true;
  }
  EXPECT_TRUE(dejavu_serif);
  auto checked = run(book.path, out.path, "check pdf");
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;

  // The same PDF, held to a rule it breaks.
  std::string toml = read_file(book.path / "book.toml");
  toml.replace(toml.find("fonts-forbidden = [\"Noto Serif\"]"), 32, "fonts-forbidden = [\"DejaVu Serif\"]");
  test::write_file(book.path / "book.toml", toml);
  checked = run(book.path, out.path, "check pdf");
  EXPECT_NE(checked.exit_code, 0);
  EXPECT_TRUE(
      std::regex_search(checked.err, std::regex("error: font `[A-Z]{6}\\+DejaVuSerif[^`]*` is embedded, "
                                                "but .*book\\.toml:\\d+:\\d+ forbids `DejaVu Serif`")))
      << checked.err;
}

}  // namespace
}  // namespace bb
