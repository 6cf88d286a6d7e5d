// PDF checks with poppler-cpp: page text, outline and font list. The document is owned by a
// unique_ptr the moment Poppler returns it.
#include "check/pdf_check.hpp"

#include <poppler-document.h>
#include <poppler-font.h>
#include <poppler-global.h>
#include <poppler-page.h>
#include <poppler-toc.h>

#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include "latex/book_tex.hpp"
#include "latex/tex_log.hpp"

namespace bb::check {

namespace fs = std::filesystem;

namespace {

std::string utf8(const poppler::ustring& s) {
  auto bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

// Text compared without any white space (PDF text extraction adds and drops spaces and line breaks,
// around CJK in particular) and with words hyphenated at a line end joined again.
std::string squeeze(std::string_view s, bool join_hyphens) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (join_hyphens && c == '-' && i + 1 < s.size() && s[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f') continue;
    if (s.substr(i).starts_with("\u3000") || s.substr(i).starts_with("\u00A0")) {
      i += s.substr(i).starts_with("\u3000") ? 2 : 1;
      continue;
    }
    out += static_cast<char>(c);
  }
  return out;
}

void quiet_poppler(const std::string&, void*) {}

}  // namespace

PdfFacts check_pdf(const fs::path& pdf, const PdfExpectations& expect, Diagnostics& diags) {
  PdfFacts facts;
  SourceLoc at{pdf, 0, 0};
  poppler::set_debug_error_function(quiet_poppler, nullptr);
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(pdf.string()));
  if (!doc) {
    diags.error(at, "cannot open the PDF");
    return facts;
  }
  facts.pages = doc->pages();
  if (facts.pages == 0) diags.error(at, "the PDF has no pages");

  // Outline: the chapters, in order.
  std::unique_ptr<poppler::toc> toc(doc->create_toc());
  std::vector<std::string> bookmarks;
  if (toc && toc->root())
    for (const auto* item : toc->root()->children()) bookmarks.push_back(utf8(item->title()));
  facts.top_bookmarks = static_cast<int>(bookmarks.size());
  if (bookmarks.size() != expect.chapter_titles.size()) {
    diags.error(at, std::to_string(bookmarks.size()) + " top-level bookmarks for " +
                        std::to_string(expect.chapter_titles.size()) + " chapters");
  }
  for (std::size_t i = 0; i < std::min(bookmarks.size(), expect.chapter_titles.size()); ++i) {
    if (squeeze(bookmarks[i], false).find(squeeze(expect.chapter_titles[i], false)) == std::string::npos)
      diags.error(at, "bookmark " + std::to_string(i + 1) + " is `" + bookmarks[i] + "`, expected chapter `" +
                          expect.chapter_titles[i] + "`");
  }

  // Text.
  std::string text;
  int fffd_pages = 0, unresolved_pages = 0;
  std::string first_fffd, first_unresolved;
  for (int i = 0; i < facts.pages; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    if (!page) continue;
    std::string t = utf8(page->text());
    if (t.find("\uFFFD") != std::string::npos && fffd_pages++ == 0) first_fffd = std::to_string(i + 1);
    if (t.find("??") != std::string::npos && unresolved_pages++ == 0)
      first_unresolved = std::to_string(i + 1);
    text += t;
    text += '\n';
  }
  if (fffd_pages)
    diags.error(at, "U+FFFD (a character without a Unicode mapping) on " + std::to_string(fffd_pages) +
                        " page(s), first on page " + first_fffd);
  if (unresolved_pages)
    diags.error(at, "`??` (an unresolved reference) on " + std::to_string(unresolved_pages) +
                        " page(s), first on page " + first_unresolved);
  std::string flat = squeeze(text, false), joined = squeeze(text, true);
  for (const auto& title : expect.chapter_titles) {
    std::string t = squeeze(title, false);
    if (t.empty() || title.find('\\') != std::string::npos) continue;  // math in a title prints differently
    if (flat.find(t) == std::string::npos && joined.find(t) == std::string::npos)
      diags.error(at, "chapter title `" + title + "` does not appear in the text");
  }

  // Fonts.
  for (const auto& f : doc->fonts()) {
    ++facts.fonts;
    if (!f.is_embedded()) {
      ++facts.unembedded_fonts;
      diags.error(at, "font `" + f.name() + "` is not embedded");
    }
  }

  // XeLaTeX's own word on glyphs it could not find.
  if (!expect.tex_log.empty()) {
    std::ifstream in(expect.tex_log, std::ios::binary);
    if (!in) {
      diags.warning(at, "no XeLaTeX log at " + expect.tex_log.string() + ": missing characters not checked");
    } else {
      std::ostringstream ss;
      ss << in.rdbuf();
      for (const auto& m : latex::parse_tex_log(ss.str()).missing_characters)
        diags.error({expect.tex_log, 0, 0}, m);
    }
  }
  return facts;
}

void check_pdfs(const book::Book& book, const fs::path& out_dir, Diagnostics& diags, std::ostream& out) {
  for (const auto& eb : book.editions) {
    fs::path pdf = out_dir / "pdf" / latex::pdf_file_name(book.config, eb.edition);
    if (!fs::exists(pdf)) {
      diags.error({pdf, 0, 0}, "no PDF for edition " + eb.edition.id + ": run `bookbuild pdf --edition " +
                                   eb.edition.id + "` first");
      continue;
    }
    PdfExpectations expect;
    for (const auto& c : eb.chapters) expect.chapter_titles.push_back(c.title);
    expect.tex_log = out_dir / "latex" / eb.edition.id / "book.log";
    std::size_t before = diags.error_count();
    PdfFacts f = check_pdf(pdf, expect, diags);
    out << "pdf " << eb.edition.id << ": " << pdf.filename().string() << ": " << f.pages << " pages, "
        << f.top_bookmarks << " chapter bookmarks, " << f.fonts << " fonts (" << f.unembedded_fonts
        << " not embedded), " << (diags.error_count() - before) << " problems\n";
  }
}

}  // namespace bb::check
