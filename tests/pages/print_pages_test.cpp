// End to end: a book's PDF and EPUB built together; every block's page in the EPUB (the pagebreak
// marker before it) is the page its leading token is printed on in the PDF (found with Poppler), and
// without a PDF, or with one the record was not made from, the EPUB claims no pages. Needs xelatex
// (skipped without), and unzip; epubcheck when installed.
#include <gtest/gtest.h>
#include <poppler-document.h>
#include <poppler-page.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "typeset/xelatex.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kBook = fs::path(BOOKBUILD_PAGES_FIXTURES) / "book";

struct Out {
  fs::path dir;
  explicit Out(const std::string& name)
      : dir(fs::temp_directory_path() / ("bookbuild-print-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
  }
  ~Out() { fs::remove_all(dir); }
  // The one file of the given extension in <out>/<sub>.
  fs::path only(const std::string& sub, const std::string& ext) const {
    for (const auto& e : fs::directory_iterator(dir / sub))
      if (e.path().extension() == ext) return e.path();
    return {};
  }
};

int bookbuild(const Out& out, const std::string& args) {
  const std::string cmd = std::string(BOOKBUILD_EXE) + " --book '" + kBook.string() + "' --out '" +
                          out.dir.string() + "' -q " + args + " >/dev/null 2>&1";
  return std::system(cmd.c_str());
}

std::string run_output(const std::string& cmd) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p.get())) > 0;) out.append(buf, n);
  return out;
}

std::string entry(const fs::path& epub, const std::string& name) {
  return run_output("unzip -p '" + epub.string() + "' '" + name + "'");
}

const std::regex kToken("Q[0-9]{3}Z");

// Token → the printed page label of the PDF page it first appears on.
std::map<std::string, std::string> pdf_pages(const fs::path& pdf) {
  std::map<std::string, std::string> pages;
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(pdf.string()));
  if (!doc) return pages;
  for (int i = 0; i < doc->pages(); ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    const auto text = page->text().to_utf8();
    const std::string s(text.begin(), text.end());
    const auto label = page->label().to_utf8();
    for (std::sregex_iterator it(s.begin(), s.end(), kToken), end; it != end; ++it)
      pages.emplace(it->str(), std::string(label.begin(), label.end()));
  }
  return pages;
}

// Token → the page of the last pagebreak marker before it, through the chapters in reading order.
std::map<std::string, std::string> epub_pages(const fs::path& epub) {
  static const std::regex marker_or_token(
      "<span epub:type=\"pagebreak\" role=\"doc-pagebreak\" id=\"page-[^\"]*\" aria-label=\"([^\"]*)\"|"
      "Q[0-9]{3}Z");
  std::map<std::string, std::string> pages;
  std::string page;
  for (const char* chapter : {"EPUB/preface.xhtml", "EPUB/ch01.xhtml", "EPUB/ch02.xhtml"}) {
    const std::string s = entry(epub, chapter);
    for (std::sregex_iterator it(s.begin(), s.end(), marker_or_token), end; it != end; ++it) {
      if ((*it)[1].matched)
        page = (*it)[1].str();
      else if (!page.empty())
        pages.emplace(it->str(), page);
    }
  }
  return pages;
}

bool has_page_list(const fs::path& epub) {
  return entry(epub, "EPUB/nav.xhtml").find("epub:type=\"page-list\"") != std::string::npos;
}

}  // namespace

TEST(PrintPages, ABlocksPageInTheEpubIsItsPageInThePdf) {
  if (bb::typeset::xelatex_program().empty()) GTEST_SKIP() << "xelatex is not installed";
  Out out("build");
  ASSERT_EQ(bookbuild(out, "build"), 0);
  const fs::path pdf = out.only("pdf", ".pdf"), epub = out.only("epub", ".epub");
  ASSERT_FALSE(pdf.empty());
  ASSERT_FALSE(epub.empty());
  const auto printed = pdf_pages(pdf);
  const auto marked = epub_pages(epub);
  ASSERT_GE(printed.size(), 60U) << "the fixture's tokens are not found in the PDF";
  std::set<std::string> pages;
  int compared = 0;
  for (const auto& [token, page] : marked) {
    auto it = printed.find(token);
    if (it == printed.end()) continue;
    EXPECT_EQ(page, it->second) << token;
    pages.insert(page);
    ++compared;
  }
  EXPECT_GE(compared, 60);
  EXPECT_GE(pages.size(), 10U);  // the book runs over many pages, each marked

  const std::string nav = entry(epub, "EPUB/nav.xhtml"), opf = entry(epub, "EPUB/package.opf");
  EXPECT_TRUE(has_page_list(epub));
  EXPECT_NE(opf.find("property=\"source-of\">pagination</meta>"), std::string::npos);
  EXPECT_NE(opf.find(">pageBreakMarkers</meta>"), std::string::npos);
  EXPECT_NE(opf.find(">pageNavigation</meta>"), std::string::npos);

  if (run_output("command -v epubcheck").empty() || run_output("command -v java").empty()) return;
  const std::string check =
      run_output("java -jar \"$(readlink -f \"$(command -v epubcheck)\")\" '" + epub.string() + "' 2>&1");
  EXPECT_NE(check.find("Messages: 0 fatals / 0 errors / 0 warnings"), std::string::npos) << check;
}

// `epub` alone takes the page list of an earlier `pdf` run in the same --out, but not once the PDF is
// another; and an EPUB built with no PDF makes no claim.
TEST(PrintPages, OnlyFromThePdfTheRecordWasMadeFrom) {
  if (bb::typeset::xelatex_program().empty()) GTEST_SKIP() << "xelatex is not installed";
  Out out("alone");
  ASSERT_EQ(bookbuild(out, "epub"), 0);
  const fs::path first = out.only("epub", ".epub");
  EXPECT_FALSE(has_page_list(first));
  EXPECT_EQ(entry(first, "EPUB/package.opf").find("pageBreakMarkers"), std::string::npos);

  ASSERT_EQ(bookbuild(out, "pdf"), 0);
  ASSERT_EQ(bookbuild(out, "epub"), 0);
  EXPECT_TRUE(has_page_list(out.only("epub", ".epub")));

  std::ofstream(out.only("pdf", ".pdf"), std::ios::app) << "\n%another PDF\n";
  ASSERT_EQ(bookbuild(out, "epub"), 0);
  const fs::path last = out.only("epub", ".epub");
  EXPECT_FALSE(has_page_list(last));
  EXPECT_EQ(entry(last, "EPUB/package.opf").find("pageBreakMarkers"), std::string::npos);
}
