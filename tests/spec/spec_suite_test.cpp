// The CommonMark/GFM spec suite: every example of the GFM spec that Debian's cmark-gfm package ships
// (/usr/share/doc/cmark-gfm/spec.txt.gz) goes through bookbuild's Markdown front end and HTML writer
// and through cmark-gfm's own HTML renderer; the two must agree after the spec's normalisation, or
// the example must be listed in differences.tsv with a reason from reasons.tsv, each reason quoting
// the docs line that states bookbuild's choice. A listed example that agrees again fails too, so the
// list stays true. The same examples are compared with the spec's own expected HTML: they must give it
// or be listed in deviations.tsv, with a reason.
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "markdown/frontend.hpp"
#include "writers/html.hpp"

namespace {

namespace fs = std::filesystem;

struct Example {
  int number = 0;
  std::string section;
  std::string extension;  // "", "table", "autolink", "disabled", …
  std::string markdown;
  std::string html;  // the spec's expected output
};

std::string gunzip(const fs::path& path) {
  std::string out;
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::string untab(std::string s) {  // the spec writes a tab as U+2192
  const std::string arrow = "\xE2\x86\x92";
  for (std::size_t at; (at = s.find(arrow)) != std::string::npos;) s.replace(at, arrow.size(), "\t");
  return s;
}

std::vector<Example> read_spec(const std::string& text) {
  const std::string fence(32, '`');
  std::vector<Example> out;
  std::istringstream in(text);
  std::string line, section;
  int number = 0;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) {
      section = line.substr(line.find_first_not_of("# "));
      continue;
    }
    if (!line.starts_with(fence + " example")) continue;
    Example e;
    e.number = ++number;
    e.section = section;
    e.extension = line.size() > fence.size() + 9 ? line.substr(fence.size() + 9) : "";
    bool in_html = false;
    while (std::getline(in, line) && line != fence) {
      if (line == ".") {
        in_html = true;
        continue;
      }
      (in_html ? e.html : e.markdown) += line + "\n";
    }
    e.markdown = untab(e.markdown);
    e.html = untab(e.html);
    out.push_back(std::move(e));
  }
  return out;
}

// cmark-gfm's own rendering, with the extensions bookbuild attaches (raw HTML kept, as the spec has it).
std::string cmark_html(const std::string& markdown) {
  cmark_gfm_core_extensions_ensure_registered();
  const int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES;
  cmark_parser* parser = cmark_parser_new(options);
  for (const char* name : {"table", "strikethrough", "autolink", "tasklist"})
    if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name))
      cmark_parser_attach_syntax_extension(parser, ext);
  cmark_parser_feed(parser, markdown.data(), markdown.size());
  cmark_node* doc = cmark_parser_finish(parser);
  char* html = cmark_render_html(doc, options, cmark_parser_get_syntax_extensions(parser));
  std::string out = html;
  free(html);
  cmark_node_free(doc);
  cmark_parser_free(parser);
  return out;
}

std::string bookbuild_html(const std::string& markdown) {
  bb::Diagnostics diags;
  auto root = bb::markdown::parse(markdown, "spec.md", diags);
  return bb::writers::render_html(root);
}

// Percent-decodes href and src values: `my%20url` and `my url` name the same address (cmark-gfm
// percent-encodes, bookbuild writes the address as the author did, an IRI).
std::string decode_urls(const std::string& html) {
  static const std::regex url_attr(R"re(((?:href|src)=")([^"]*)("))re");
  std::string out;
  std::size_t done = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url_attr); it != std::sregex_iterator();
       ++it) {
    const auto& m = *it;
    out += html.substr(done, static_cast<std::size_t>(m.position(0)) - done) + m[1].str();
    const std::string v = m[2].str();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
        const char c = static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
        out += c == '"' ? std::string("&quot;") : std::string(1, c);
        i += 2;
      } else {
        out += v[i];
      }
    }
    out += m[3].str();
    done = static_cast<std::size_t>(m.position(0) + m.length(0));
  }
  return out + html.substr(done);
}

// The spec's normalisation (its normalize.py), in the parts that matter here: whitespace between tags
// and around block tags, `<br />` against `<br>`, attribute order, `'` written as a character or as
// `&#39;`, percent-encoding in addresses. Then bookbuild's presentational markup, which changes no
// rendering: the highlighter's token spans in code, the scroll wrapper around tables, and cell
// alignment written as a style rather than the obsolete `align` attribute.
std::string normalize(std::string html) {
  static const std::regex between(R"(>\s+<)"), self_close(R"(\s*/>)"), edge(R"(^\s+|\s+$)"),
      block(R"(\s*(</?(?:ul|ol|li|p|blockquote|table|thead|tbody|tr|th|td|h[1-6]|hr|div|pre)\b[^>]*>)\s*)"),
      hl(R"(<span class="hl-[a-z]+">|</span>)"), wrap(R"(<div class="table-wrap">|(</table>)</div>)"),
      align(R"re(style="text-align: (left|center|right)")re"),
      tag(R"(<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>]+(?:="[^"]*")?)+)\s*>)"),
      attr(R"(\s+([^\s=>]+(?:="[^"]*")?))");
  if (html.find("hl-") != std::string::npos) html = std::regex_replace(html, hl, "");
  html = std::regex_replace(html, wrap, "$1");
  html = std::regex_replace(html, align, "align=\"$1\"");
  for (std::size_t at; (at = html.find("&#39;")) != std::string::npos;) html.replace(at, 5, "'");
  html = decode_urls(html);
  html = std::regex_replace(html, between, "><");
  html = std::regex_replace(html, block, "$1");
  html = std::regex_replace(html, self_close, ">");
  html = std::regex_replace(html, edge, "");
  std::string out;
  auto begin = std::sregex_iterator(html.begin(), html.end(), tag);
  std::size_t done = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out += html.substr(done, static_cast<std::size_t>(m.position(0)) - done);
    std::vector<std::string> attrs;
    const std::string list = m[2].str();
    for (auto a = std::sregex_iterator(list.begin(), list.end(), attr); a != std::sregex_iterator(); ++a)
      attrs.push_back((*a)[1].str());
    std::sort(attrs.begin(), attrs.end());
    out += "<" + m[1].str();
    for (const auto& a : attrs) out += " " + a;
    out += ">";
    done = static_cast<std::size_t>(m.position(0) + m.length(0));
  }
  out += html.substr(done);
  return out;
}

std::vector<std::vector<std::string>> read_tsv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::size_t from = 0;
    for (std::size_t tab; (tab = line.find('\t', from)) != std::string::npos; from = tab + 1)
      cells.push_back(line.substr(from, tab - from));
    cells.push_back(line.substr(from));
    rows.push_back(std::move(cells));
  }
  return rows;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kSpec = "/usr/share/doc/cmark-gfm/spec.txt.gz";
const fs::path kHere = BOOKBUILD_SPEC_DIR;

TEST(SpecSuite, EveryReasonQuotesItsDocsLine) {
  auto reasons = read_tsv(kHere / "reasons.tsv");
  ASSERT_FALSE(reasons.empty());
  for (const auto& r : reasons) {
    ASSERT_EQ(r.size(), 3u) << "reasons.tsv: want key, docs file, quoted phrase";
    const std::string docs = read_text(fs::path(BOOKBUILD_SOURCE_DIR) / r[1]);
    EXPECT_NE(docs.find(r[2]), std::string::npos) << r[0] << ": " << r[1] << " no longer says: " << r[2];
  }
}

TEST(SpecSuite, AgreesWithCmarkGfmOrTheDifferenceIsDocumented) {
  if (!fs::exists(kSpec)) GTEST_SKIP() << kSpec << " absent (Debian package cmark-gfm)";
  auto examples = read_spec(gunzip(kSpec));
  ASSERT_GT(examples.size(), 600u) << "the spec file was not read";
  std::map<std::string, std::string> reasons;
  for (const auto& r : read_tsv(kHere / "reasons.tsv")) reasons[r[0]] = r.size() > 1 ? r[1] : "";
  std::map<int, std::string> listed;
  for (const auto& d : read_tsv(kHere / "differences.tsv")) {
    ASSERT_EQ(d.size(), 2u) << "differences.tsv: want example number, reason";
    ASSERT_TRUE(reasons.count(d[1])) << "differences.tsv: unknown reason " << d[1];
    listed[std::stoi(d[0])] = d[1];
  }
  int agree = 0, explained = 0, compared = 0;
  for (const auto& e : examples) {
    if (e.extension == "disabled") continue;  // examples the spec itself turns off
    ++compared;
    const std::string ours = bookbuild_html(e.markdown), theirs = cmark_html(e.markdown);
    const bool same = normalize(ours) == normalize(theirs);
    auto it = listed.find(e.number);
    if (same) {
      ++agree;
      EXPECT_EQ(it, listed.end()) << "example " << e.number << " (" << e.section
                                  << ") now agrees: remove it from differences.tsv";
    } else if (it != listed.end()) {
      ++explained;
    } else {
      ADD_FAILURE() << "example " << e.number << " (" << e.section << ") differs, unexplained\n--- markdown\n"
                    << e.markdown << "--- cmark-gfm\n"
                    << theirs << "--- bookbuild\n"
                    << ours;
    }
  }
  std::cout << compared << " examples: " << agree << " agree, " << explained
            << " differ by a documented choice\n";
}

// The examples bookbuild conforms to are held to the spec itself, not only to cmark-gfm's rendering:
// every example not disabled must give the spec's expected HTML (after the same normalisation), or
// be listed in deviations.tsv with a reason from reasons.tsv. A listed example that conforms fails too.
TEST(SpecSuite, GivesTheSpecsExpectedHtmlOrTheDeviationIsDocumented) {
  if (!fs::exists(kSpec)) GTEST_SKIP() << kSpec << " absent (Debian package cmark-gfm)";
  auto examples = read_spec(gunzip(kSpec));
  ASSERT_GT(examples.size(), 600u) << "the spec file was not read";
  std::map<std::string, std::string> reasons;
  for (const auto& r : read_tsv(kHere / "reasons.tsv")) reasons[r[0]] = r.size() > 1 ? r[1] : "";
  std::map<int, std::string> listed;
  for (const auto& d : read_tsv(kHere / "deviations.tsv")) {
    ASSERT_EQ(d.size(), 2u) << "deviations.tsv: want example number, reason";
    ASSERT_TRUE(reasons.count(d[1])) << "deviations.tsv: unknown reason " << d[1];
    listed[std::stoi(d[0])] = d[1];
  }
  int conform = 0, deviate = 0, compared = 0;
  for (const auto& e : examples) {
    if (e.extension == "disabled") continue;
    ++compared;
    const std::string ours = bookbuild_html(e.markdown);
    const bool same = normalize(ours) == normalize(e.html);
    auto it = listed.find(e.number);
    if (same) {
      ++conform;
      EXPECT_EQ(it, listed.end()) << "example " << e.number << " (" << e.section
                                  << ") now gives the spec's HTML: remove it from deviations.tsv";
    } else if (it != listed.end()) {
      ++deviate;
    } else {
      ADD_FAILURE() << "example " << e.number << " (" << e.section
                    << ") differs from the spec, undocumented\n--- markdown\n"
                    << e.markdown << "--- spec\n"
                    << e.html << "--- bookbuild\n"
                    << ours;
    }
  }
  std::cout << compared << " examples: " << conform << " give the spec's HTML, " << deviate
            << " deviate by a documented choice\n";
}

}  // namespace
