// PDF checks: page text, outline and font list, read with Poppler in the PDF module
// (builder/figures/pdf_render.cpp), which is loaded only when a PDF is checked.
#include "check/pdf_check.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>

#include "book/output_names.hpp"
#include "figures/pdf_render.h"
#include "modules/modules.hpp"
#include "typeset/book_tex.hpp"
#include "typeset/log_report.hpp"
#include "typeset/tex_log.hpp"

namespace bb::check {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

namespace {

// A font name as the rules compare it: without the subset tag (`ABCDEF+`), lower case, without
// spaces, `-` and `_`: "Noto Sans CJK SC" and "KQXZRA+NotoSansCJKsc-Regular" meet at "notosanscjksc".
std::string font_key(std::string_view name) {
  if (name.size() > 7 && name[6] == '+' &&
      std::all_of(name.begin(), name.begin() + 6, [](char c) { return c >= 'A' && c <= 'Z'; }))
    name.remove_prefix(7);
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string place_of(const SourceLoc& loc) {
  return loc.path.get().string() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

// What the PDF module reports, gathered for the checks below.
struct Inspected {
  int pages = 0;
  std::vector<std::string> bookmarks;
  std::vector<std::string> page_texts;
  std::vector<std::pair<std::string, bool>> fonts;
};

}  // namespace

void check_font_rules(const std::vector<std::string>& embedded, const PdfExpectations& expect,
                      const SourceLoc& at, Diagnostics& diags) {
  std::vector<std::string> keys;
  for (const auto& name : embedded) keys.push_back(font_key(name));
  auto list = [&] {
    std::set<std::string> names;
    for (const auto& name : embedded) names.insert(name.size() > 7 && name[6] == '+' ? name.substr(7) : name);
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none") : out;
  };
  for (const auto& rule : expect.fonts_required) {
    const std::string key = font_key(rule.name);
    if (std::none_of(keys.begin(), keys.end(),
                     [&](const std::string& k) { return k.find(key) != std::string::npos; }))
      diags.error(at, "font `" + rule.name + "` (required at " + place_of(rule.loc) +
                          ") is not embedded; the PDF embeds: " + list());
  }
  for (const auto& rule : expect.fonts_forbidden) {
    const std::string key = font_key(rule.name);
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i].find(key) != std::string::npos)
        diags.error(at, "font `" + embedded[i] + "` is embedded, but " + place_of(rule.loc) + " forbids `" +
                            rule.name + "`");
  }
}

PdfFacts check_pdf(const fs::path& pdf, const PdfExpectations& expect, Diagnostics& diags) {
  PdfFacts facts;
  SourceLoc at{pdf, 0, 0};
  std::string load_error;
  auto inspect = reinterpret_cast<bookbuild_inspect_pdf_fn>(
      modules::module_symbol(modules::Module::Pdf, "bookbuild_inspect_pdf", load_error));
  if (!inspect) {
    diags.error(at, "cannot check the PDF: " + load_error);
    return facts;
  }
  Inspected in;
  bookbuild_pdf_visitor visitor{
      &in,
      [](void* c, int n) { static_cast<Inspected*>(c)->pages = n; },
      [](void* c, const char* title) { static_cast<Inspected*>(c)->bookmarks.emplace_back(title); },
      [](void* c, int, const char* text, std::size_t size) {
        static_cast<Inspected*>(c)->page_texts.emplace_back(text, size);
      },
      [](void* c, const char* name, int embedded) {
        static_cast<Inspected*>(c)->fonts.emplace_back(name, embedded);
      },
  };
  char message[512] = {};
  if (inspect(pdf.c_str(), &visitor, message, sizeof message) != 0) {
    diags.error(at, message);
    return facts;
  }
  facts.pages = in.pages;
  if (facts.pages == 0) diags.error(at, "the PDF has no pages");

  // Outline: the chapters, in order.
  const std::vector<std::string>& bookmarks = in.bookmarks;
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
  for (int i = 0; i < static_cast<int>(in.page_texts.size()); ++i) {
    const std::string& t = in.page_texts[i];
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
  for (const auto& [name, embedded] : in.fonts) {
    ++facts.fonts;
    if (!embedded) {
      ++facts.unembedded_fonts;
      diags.error(at, "font `" + name + "` is not embedded");
    }
  }

  // book.toml's rules on which fonts the PDF embeds.
  std::vector<std::string> embedded;
  for (const auto& [name, is_embedded] : in.fonts)
    if (is_embedded) embedded.push_back(name);
  check_font_rules(embedded, expect, at, diags);

  // XeLaTeX's own word on glyphs it could not find.
  if (!expect.tex_log.empty()) {
    std::ifstream in(expect.tex_log, std::ios::binary);
    if (!in) {
      diags.warning(at, "no XeLaTeX log at " + expect.tex_log.string() + ": missing characters not checked");
    } else {
      std::ostringstream ss;
      ss << in.rdbuf();
      const typeset::TexLog log = typeset::parse_tex_log(ss.str());
      for (const auto& m : log.missing_characters) diags.error({expect.tex_log, 0, 0}, m);
      // References to missing labels and lines into the margin, at their manuscript lines.
      const fs::path dir = expect.tex_log.parent_path();
      typeset::report_layout_problems(log, typeset::read_srcmap(dir / "book.srcmap", expect.book_root),
                                      dir / typeset::kTexName, Severity::Error, diags);
    }
  }
  return facts;
}

void check_pdfs(const book::Book& book, const fs::path& out_dir, Diagnostics& diags, std::ostream& out) {
  for (const auto& eb : book.editions) {
    fs::path pdf = out_dir / "pdf" / book::output_file(book.config, eb.edition, ".pdf");
    if (!fs::exists(pdf)) {
      diags.error({pdf, 0, 0}, "no PDF for edition " + eb.edition.id + ": run `bookbuild pdf --edition " +
                                   eb.edition.id + "` first");
      continue;
    }
    PdfExpectations expect;
    for (const auto& c : eb.chapters) expect.chapter_titles.push_back(c.title);
    expect.tex_log = out_dir / "latex" / eb.edition.id / "book.log";
    expect.book_root = book.config.root;
    expect.fonts_required = eb.edition.print.required;
    expect.fonts_forbidden = eb.edition.print.forbidden;
    std::size_t before = diags.error_count();
    PdfFacts f = check_pdf(pdf, expect, diags);
    out << "pdf " << eb.edition.id << ": " << pdf.filename().string() << ": " << f.pages << " pages, "
        << f.top_bookmarks << " chapter bookmarks, " << f.fonts << " fonts (" << f.unembedded_fonts
        << " not embedded), " << (diags.error_count() - before) << " problems\n";
  }
}

}  // namespace bb::check
