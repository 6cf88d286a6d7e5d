// Citations with a bibliography (issue 51): the BibTeX and CSL-JSON readers on good and malformed
// files (golden data under tests/fixtures/bibliography), both built-in styles, and a fixture book
// (tests/fixtures/books/cite) built into every output with its citations linked to their entries.
// Hostile bibliographies (outside the book, nested, broken) are cases of tests/hostile/bib-*.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bib/bibliography.hpp"
#include "bib/citation.hpp"
#include "bib/style.hpp"
#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path data() {
  return test::fixtures() / "bibliography";
}

// The entries as text, one field a line, for a golden file.
std::string dump(const std::vector<bib::Entry>& entries) {
  std::string out;
  for (const auto& e : entries) {
    out += e.key + " [" + e.type + "] line " + std::to_string(e.loc.line) + "\n";
    for (const auto* list : {&e.authors, &e.editors})
      for (const auto& n : *list)
        out +=
            std::string(list == &e.authors ? "  author: " : "  editor: ") + n.family + " | " + n.given + "\n";
    if (e.more_authors) out += "  and others\n";
    for (const auto& [k, v] : e.fields) out += "  " + k + ": " + v + "\n";
  }
  return out;
}

std::string messages(const Diagnostics& d) {
  std::string out;
  for (const auto& x : d.all()) out += format_diagnostic(x) + "\n";
  // The fixture folder differs between machines: only the file name is kept.
  return std::regex_replace(out, std::regex(data().string() + "/"), "");
}

TEST(Bibliography, BibtexEntriesMacrosAccentsAndNames) {
  Diagnostics d;
  auto entries = bib::parse_bibtex(test::read_file(data() / "good.bib"), data() / "good.bib", d);
  EXPECT_EQ(messages(d), "");
  test::expect_golden(data() / "good.bib.expected", dump(entries));
}

TEST(Bibliography, MalformedBibtexIsLocatedErrorsAndTheRestIsRead) {
  Diagnostics d;
  auto entries = bib::parse_bibtex(test::read_file(data() / "malformed.bib"), data() / "malformed.bib", d);
  std::set<std::string> keys;
  for (const auto& e : entries) keys.insert(e.key);
  EXPECT_TRUE(keys.count("good1") && keys.count("good2")) << dump(entries);
  bib::Bibliography all;
  for (auto& e : entries) all.add(std::move(e), d);
  test::expect_golden(data() / "malformed.bib.expected", messages(d));
}

TEST(Bibliography, CslJsonItems) {
  Diagnostics d;
  auto entries = bib::parse_csl_json(test::read_file(data() / "good.json"), data() / "good.json", d);
  EXPECT_EQ(messages(d), "");
  test::expect_golden(data() / "good.json.expected", dump(entries));
}

TEST(Bibliography, MalformedCslJsonIsLocated) {
  Diagnostics d;
  bib::parse_csl_json(test::read_file(data() / "malformed.json"), data() / "malformed.json", d);
  EXPECT_EQ(messages(d),
            "malformed.json:5:1: error: not valid JSON: syntax error while parsing object - unexpected "
            "']'; expected '}'\n");
  Diagnostics items;
  auto entries = bib::parse_csl_json(R"([{"id": "ok"}, {"title": "x"}])", "m.json", items);
  EXPECT_EQ(entries.size(), 1u);
  ASSERT_EQ(items.all().size(), 1u);
  EXPECT_EQ(
      format_diagnostic(items.all()[0]),
      "m.json:1:9: error: a CSL-JSON item (\"x\") after this place needs an `id` (the key it is cited by)");
}

// What no real bibliography is: a file over the limit, braces or arrays nested without end, macros
// that double at each step. Each is one located error, and nothing crashes or runs for long.
TEST(Bibliography, HostileFilesAreRefusedCleanly) {
  test::TempDir dir("bb-bib");
  const fs::path huge = dir.path / "huge.bib";
  test::write_file(huge, std::string(bib::kMaxBibliographyBytes + 1, '%'));
  bib::Bibliography b;
  Diagnostics d;
  bib::read_bibliography_file(huge, b, d);
  ASSERT_EQ(d.all().size(), 1u);
  EXPECT_NE(d.all()[0].message.find("at most 8.0 MiB"), std::string::npos) << d.all()[0].message;

  Diagnostics deep;
  bib::parse_bibtex("@misc{k, title = " + std::string(100000, '{'), "d.bib", deep);
  ASSERT_EQ(deep.all().size(), 1u);
  EXPECT_EQ(format_diagnostic(deep.all()[0]), "d.bib:1:50: error: braces nested more than 32 deep");

  Diagnostics json;
  bib::parse_csl_json(std::string(100000, '[') + std::string(100000, ']'), "d.json", json);
  ASSERT_EQ(json.all().size(), 1u);
  EXPECT_EQ(format_diagnostic(json.all()[0]), "d.json:1:33: error: JSON nested more than 32 deep");

  std::string doubling = "@string{m0 = \"xxxxxxxx\"}\n";
  for (int i = 1; i < 64; ++i)
    doubling += "@string{m" + std::to_string(i) + " = m" + std::to_string(i - 1) + " # m" +
                std::to_string(i - 1) + "}\n";
  Diagnostics macros;
  bib::parse_bibtex(doubling, "m.bib", macros);
  // The first macro over the limit is refused; those built on it are then unknown.
  ASSERT_FALSE(macros.all().empty());
  EXPECT_NE(macros.all()[0].message.find("a value longer than"), std::string::npos)
      << macros.all()[0].message;
}

// Every citation of citations.txt in both styles, links written <key|shown>.
TEST(Bibliography, BothStylesFormatEveryCitationForm) {
  Diagnostics d;
  bib::Bibliography b;
  for (const char* f : {"good.bib", "good.json"}) {
    const fs::path p = data() / f;
    const std::string text = test::read_file(p);
    auto entries =
        fs::path(f).extension() == ".bib" ? bib::parse_bibtex(text, p, d) : bib::parse_csl_json(text, p, d);
    for (auto& e : entries) b.add(std::move(e), d);
  }
  std::vector<std::string> lines;
  {
    std::istringstream in(test::read_file(data() / "citations.txt"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  std::map<std::string, int> numbers;
  for (const auto& line : lines)
    for (const auto& found : bib::find_citations(line))
      for (const auto& item : found.citation.items)
        numbers.emplace(item.key, static_cast<int>(numbers.size()) + 1);
  std::function<std::string(const std::vector<doc::Node>&)> show = [&](const std::vector<doc::Node>& v) {
    std::string s;
    for (const auto& n : v) {
      if (n.kind == doc::Kind::Link && n.attr("chapter"))
        s += "<" + *n.attr("target") + "|" + show(n.children) + ">";
      else if (n.kind == doc::Kind::Emph)
        s += "*" + show(n.children) + "*";
      else if (n.kind == doc::Kind::Text)
        s += n.text;
      else
        s += show(n.children);
    }
    return s;
  };
  std::string out;
  for (auto style : {bib::Style::AuthorDate, bib::Style::Numeric}) {
    bib::Formatter f;
    f.style = style;
    f.bibliography = &b;
    f.number = [&](const std::string& k) { return numbers.at(k); };
    f.link = [](const std::string& key, std::vector<doc::Node> shown) {
      doc::Node l(doc::Kind::Link);
      l.set_attr("chapter", "ch01");
      l.set_attr("target", key);
      l.children = std::move(shown);
      return l;
    };
    out += style == bib::Style::Numeric ? "## numeric\n" : "## author-date\n";
    for (const auto& line : lines) {
      std::string shown = line;
      auto found = bib::find_citations(line);
      for (auto it = found.rbegin(); it != found.rend(); ++it)
        shown.replace(it->offset, it->length, show(f.citation(it->citation, {})));
      out += line + "\n  → " + shown + "\n";
    }
    out += "list:\n";
    for (const auto& [key, n] : numbers) out += "  " + show(f.entry(*b.find(key), n, {})) + "\n";
  }
  EXPECT_EQ(messages(d), "");
  test::expect_golden(data() / "citations.expected", out);
}

// --- The fixture book, built ---------------------------------------------------------------------

struct CiteBook {
  test::TempDir dir{"bb-cite"};
  fs::path root = dir.path / "book";
  fs::path out = dir.path / "out";
  CiteBook() { fs::copy(test::fixtures() / "books" / "cite", root, fs::copy_options::recursive); }
  void set(const std::string& from, const std::string& to) const {
    std::string toml = test::read_file(root / "book.toml");
    ASSERT_NE(toml.find(from), std::string::npos) << from;
    toml.replace(toml.find(from), from.size(), to);
    test::write_file(root / "book.toml", toml);
  }
  [[nodiscard]] test::RunResult run(const std::string& args) const {
    return test::run_bookbuild("--book '" + root.string() + "' --out '" + out.string() + "' " + args);
  }
};

bool has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// Every `href="PAGE#ref-…"` / `#references` of the pages leads to an element with that id on PAGE;
// returns how many were checked. `pages` maps a file name to its text.
int check_citation_links(const std::map<std::string, std::string>& pages) {
  int checked = 0;
  const std::regex href(R"(href="([^"#]*)#((?:ref-|references)[^"]*)\")");
  for (const auto& [name, text] : pages)
    for (auto it = std::sregex_iterator(text.begin(), text.end(), href); it != std::sregex_iterator(); ++it) {
      const std::string page = (*it)[1].str().empty() ? name : (*it)[1].str();
      const auto target = pages.find(page);
      EXPECT_NE(target, pages.end()) << name << " links to " << page;
      if (target == pages.end()) continue;
      EXPECT_TRUE(has(target->second, "id=\"" + (*it)[2].str() + "\"")) << name << " → " << (*it)[0].str();
      ++checked;
    }
  return checked;
}

TEST(BibliographyBook, AuthorDateInTheSiteWithAListPerChapter) {
  CiteBook b;
  auto r = b.run("site");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  std::map<std::string, std::string> pages;
  for (const char* p : {"ch01.html", "ch02.html"}) pages[p] = test::read_file(b.out / "site" / p);
  const std::string& ch1 = pages["ch01.html"];
  EXPECT_TRUE(has(ch1, "(<a href=\"#ref-okafor2021\">Okafor and Brandt 2021, 35</a>)")) << ch1;
  EXPECT_TRUE(has(ch1, "<a href=\"#ref-lindqvist2019\">Lindqvist (2019)</a></span> argues")) << ch1;
  EXPECT_TRUE(has(ch1, "(see <a href=\"#ref-tanaka2020\">Tanaka et al. 2020</a>; ")) << ch1;
  EXPECT_TRUE(has(ch1, "(<a href=\"#ref-lindqvist2019\">2019</a>)")) << ch1;
  EXPECT_TRUE(has(ch1, "the decorator @property is code talk")) << ch1;
  EXPECT_TRUE(has(ch1, "id=\"references\"")) << ch1;
  EXPECT_TRUE(has(ch1, ">References</h2>")) << ch1;
  // Sorted by author: Lindqvist, Okafor, Tanaka; the JSON entry only in the chapter that cites it.
  const auto lind =
      ch1.find("<a id=\"ref-lindqvist2019\"></a>Lindqvist, Maja. 2019. <em>The Patient Accelerator</em>");
  const auto oka = ch1.find("<a id=\"ref-okafor2021\"></a>Okafor, Chidi, and Lena Brandt. 2021.");
  const auto tan = ch1.find("<a id=\"ref-tanaka2020\"></a>Tanaka, Yui, Jörg Müller, and Inês Sousa. 2020.");
  EXPECT_TRUE(lind != std::string::npos && oka != std::string::npos && tan != std::string::npos) << ch1;
  EXPECT_TRUE(lind < oka && oka < tan) << ch1;
  EXPECT_FALSE(has(ch1, "Castillo")) << ch1;
  EXPECT_TRUE(has(pages["ch02.html"], "<a id=\"ref-castillo2022\"></a>Castillo, Rosa. 2022."))
      << pages["ch02.html"];
  EXPECT_GE(check_citation_links(pages), 10);
  // The Russian edition: its words and its heading.
  const std::string ru = test::read_file(b.out / "site/ru/ch01.html");
  EXPECT_TRUE(has(ru, ">Список литературы</h2>")) << ru;
  EXPECT_TRUE(has(ru, "Tanaka и др. 2020")) << ru;
  // The reference list is a section of the search index, as any chapter's text.
  const std::string index = test::read_file(b.out / "site/search/docs.json");
  EXPECT_TRUE(has(index, "[0,\"references\",\"References\"]")) << index;
}

TEST(BibliographyBook, NumericWithOneListAtTheEnd) {
  CiteBook b;
  b.set("citation-style = \"author-date\"", "citation-style = \"numeric\"");
  b.set("references = \"chapter\"", "references = \"end\"");
  auto r = b.run("site");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> pages;
  for (const char* p : {"ch01.html", "ch02.html"}) pages[p] = test::read_file(b.out / "site" / p);
  const std::string& ch1 = pages["ch01.html"];
  const std::string& ch2 = pages["ch02.html"];
  // Numbered by first citation: okafor 1, lindqvist 2, tanaka 3, castillo 4.
  EXPECT_TRUE(has(ch1, "<a href=\"ch02.html#ref-okafor2021\">[1, p. 35]</a>")) << ch1;
  EXPECT_TRUE(has(ch1, "<a href=\"ch02.html#ref-lindqvist2019\">Lindqvist [2]</a></span> argues")) << ch1;
  EXPECT_TRUE(
      has(ch1, "year alone: <span class=\"citation\"><a href=\"ch02.html#ref-lindqvist2019\">[2]</a>"))
      << ch1;
  EXPECT_TRUE(has(ch2, "<a href=\"#ref-okafor2021\">[1]</a>–<a href=\"#ref-tanaka2020\">[3]</a>")) << ch2;
  EXPECT_FALSE(has(ch1, "id=\"references\"")) << ch1;
  const auto one =
      ch2.find("<a id=\"ref-okafor2021\"></a>[1] C. Okafor and L. Brandt, “Moving Weights Faster");
  const auto four = ch2.find("<a id=\"ref-castillo2022\"></a>[4] R. Castillo, <em>A Field Guide");
  EXPECT_TRUE(one != std::string::npos && four != std::string::npos && one < four) << ch2;
  EXPECT_GE(check_citation_links(pages), 8);
}

TEST(BibliographyBook, EpubAndLatexLinkEveryCitationToItsEntry) {
  CiteBook b;
  auto r = b.run("epub --edition en");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::path epub;
  for (const auto& e : fs::directory_iterator(b.out / "epub"))
    if (e.path().extension() == ".epub") epub = e.path();
  ASSERT_FALSE(epub.empty());
  std::map<std::string, std::string> pages;
  auto list = test::run_command("unzip -Z1 '" + epub.string() + "'");
  std::istringstream names(list.out);
  for (std::string name; std::getline(names, name);)
    if (name.ends_with(".xhtml"))
      pages[fs::path(name).filename().string()] =
          test::run_command("unzip -p '" + epub.string() + "' '" + name + "'").out;
  ASSERT_TRUE(pages.count("ch01.xhtml")) << list.out;
  EXPECT_TRUE(has(pages["ch01.xhtml"], "Okafor and Brandt 2021, 35</a>)")) << pages["ch01.xhtml"];
  EXPECT_GE(check_citation_links(pages), 10);
  // epubcheck passes it: epubcheck.book (tests/epub/CMakeLists.txt) checks this fixture book too.

  auto latex = b.run("latex --edition en");
  ASSERT_EQ(latex.exit_code, 0) << latex.err;
  const std::string tex = test::read_file(b.out / "latex/en/book.tex");
  const std::regex ref(R"(\\hyperref\[([^\]]*ref-okafor2021)\])");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(tex, m, ref)) << tex;
  EXPECT_TRUE(has(tex, "\\label{" + m[1].str() + "}")) << tex;
  EXPECT_TRUE(has(tex, "{Okafor and Brandt 2021, 35})")) << tex;
  EXPECT_TRUE(has(tex, "References")) << tex;
}

// An unknown key is an error at its place with the nearest key; without a bibliography a citation
// stays as typed with a warning, as before.
TEST(BibliographyBook, UnknownKeyIsAnErrorAndNoBibliographyKeepsTheText) {
  CiteBook b;
  test::write_file(b.root / "en/chapter02.md", "# Two\n\nMistyped [@okafor2012].\n");
  auto r = b.run("check");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(
      has(r.err,
          "chapter02.md:3:10: error: citation key `okafor2012` is not in the bibliography (did you mean "
          "`okafor2021`?)"))
      << r.err;

  CiteBook none;
  none.set("bibliography = [\"refs.bib\", \"more.json\"]\n", "");
  auto site = none.run("site --edition en");
  ASSERT_EQ(site.exit_code, 0) << site.err;
  EXPECT_TRUE(has(site.err, "chapter01.md:3:21: warning: citation `[@okafor2021, p. 35]` prints as text"))
      << site.err;
  EXPECT_TRUE(has(test::read_file(none.out / "site/ch01.html"), "slowly [@okafor2021, p. 35].")) << site.err;
}

// An entry without a title cannot be formatted: a warning at its line in the bibliography, once.
TEST(BibliographyBook, AnEntryWithoutTitleIsAWarningAtItsLine) {
  CiteBook b;
  std::string bib = test::read_file(b.root / "refs.bib");
  const std::string title = "  title     = \"The Patient \" # {Accelerator},\n";
  ASSERT_NE(bib.find(title), std::string::npos);
  bib.replace(bib.find(title), title.size(), "");
  test::write_file(b.root / "refs.bib", bib);
  auto r = b.run("site");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "refs.bib:15:1: warning: entry `lindqvist2019` has no title")) << r.err;
  EXPECT_EQ(r.err.find("warning"), r.err.rfind("warning: entry")) << r.err;
}

}  // namespace
}  // namespace bb
