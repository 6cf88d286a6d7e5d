// The container, package and navigation documents, rendered from templates/epub/.
#include "epub/package.hpp"

#include <array>
#include <cstdio>

#include "text/digest.hpp"
#include "writers/escape.hpp"
#include "writers/template.hpp"

namespace bb::epub {

using writers::escape_xml;

std::string format_modified(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string identifier_for(const std::string& name) {
  // RFC 4122 §4.3: SHA-1 over the namespace (URL: 6ba7b811-9dad-11d1-80b4-00c04fd430c8) and the name.
  static constexpr std::array<unsigned char, 16> url_namespace = {
      0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
  std::string input(url_namespace.begin(), url_namespace.end());
  input += name;
  auto md = text::sha1(input);
  md[6] = static_cast<std::uint8_t>((md[6] & 0x0f) | 0x50);
  md[8] = static_cast<std::uint8_t>((md[8] & 0x3f) | 0x80);
  static const char* hex = "0123456789abcdef";
  std::string out = "urn:uuid:";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

std::string container_document(const std::string& package_path) {
  return writers::fill_template(writers::load_template("epub/container.xml"),
                                {{"package_path", escape_xml(package_path)}}, "epub/container.xml");
}

std::string package_document(const PackageDocument& p) {
  const Metadata& m = p.metadata;
  std::string subtitle;
  if (!m.subtitle.empty())
    subtitle = "    <dc:title id=\"subtitle\">" + escape_xml(m.subtitle) +
               "</dc:title>\n    <meta refines=\"#subtitle\" property=\"title-type\">subtitle</meta>\n";
  std::string creators;
  for (std::size_t i = 0; i < m.creators.size(); ++i) {
    std::string id = "creator-" + std::to_string(i + 1);
    creators += "    <dc:creator id=\"" + id + "\">" + escape_xml(m.creators[i]) + "</dc:creator>\n";
    creators += "    <meta refines=\"#" + id + "\" property=\"role\" scheme=\"marc:relators\">aut</meta>\n";
  }
  std::string rights;
  if (!m.rights.empty()) rights = "    <dc:rights>" + escape_xml(m.rights) + "</dc:rights>\n";
  std::string cover_meta;
  // EPUB 2 readers find the cover through this meta; EPUB 3 ones through the cover-image property.
  if (!p.cover_image_id.empty())
    cover_meta = "    <meta name=\"cover\" content=\"" + escape_xml(p.cover_image_id) + "\"/>\n";
  // The page list's source (EPUB 3.3 §5.6.2.2): epubcheck 4.2.6 does not know the pageBreakSource
  // property; a dc:source refined as the source of pagination is what it accepts.
  std::string page_source;
  if (!p.page_source.empty())
    page_source =
        "    <dc:source id=\"page-source\">" + escape_xml(p.page_source) +
        "</dc:source>\n    <meta refines=\"#page-source\" property=\"source-of\">pagination</meta>\n";
  std::string manifest;
  for (const auto& item : p.manifest) {
    manifest += "    <item id=\"" + escape_xml(item.id) + "\" href=\"" + escape_xml(item.href) +
                "\" media-type=\"" + escape_xml(item.media_type) + "\"";
    if (!item.properties.empty()) manifest += " properties=\"" + escape_xml(item.properties) + "\"";
    manifest += "/>\n";
  }
  std::string spine;
  for (const auto& idref : p.spine) spine += "    <itemref idref=\"" + escape_xml(idref) + "\"/>\n";
  return writers::fill_template(writers::load_template("epub/package.opf"),
                                {{"lang", escape_xml(m.lang)},
                                 {"identifier", escape_xml(m.identifier)},
                                 {"title", escape_xml(m.title)},
                                 {"subtitle", subtitle},
                                 {"creators", creators},
                                 {"rights", rights},
                                 {"modified", format_modified(m.modified)},
                                 {"cover_meta", cover_meta},
                                 {"page_source", page_source},
                                 {"accessibility", p.accessibility},
                                 {"manifest", manifest},
                                 {"spine", spine}},
                                "epub/package.opf");
}

namespace {

void nav_entries(std::string& out, const std::vector<NavEntry>& entries, int depth) {
  std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& e : entries) {
    out += indent + "<li><a href=\"" + escape_xml(e.href) + "\">" + escape_xml(e.label) + "</a>";
    if (!e.children.empty()) {
      out += "\n" + indent + "<ol>\n";
      nav_entries(out, e.children, depth + 1);
      out += indent + "</ol>\n" + indent;
    }
    out += "</li>\n";
  }
}

}  // namespace

std::string nav_document(const NavDocument& nav) {
  std::string toc;
  nav_entries(toc, nav.toc, 1);
  std::string landmarks;
  for (const auto& l : nav.landmarks)
    landmarks += "  <li><a epub:type=\"" + escape_xml(l.type) + "\" href=\"" + escape_xml(l.href) + "\">" +
                 escape_xml(l.label) + "</a></li>\n";
  std::string page_list;
  if (!nav.pages.empty()) {
    page_list =
        "<nav epub:type=\"page-list\" role=\"doc-pagelist\" id=\"page-list\" hidden=\"hidden\">\n<h2>" +
        escape_xml(nav.pages_title) + "</h2>\n<ol>\n";
    nav_entries(page_list, nav.pages, 1);
    page_list += "</ol>\n</nav>\n";
  }
  return writers::fill_template(writers::load_template("epub/nav.xhtml"),
                                {{"lang", escape_xml(nav.lang)},
                                 {"title", escape_xml(nav.title)},
                                 {"toc_title", escape_xml(nav.toc_title)},
                                 {"landmarks_title", escape_xml(nav.landmarks_title)},
                                 {"stylesheet", escape_xml(nav.stylesheet)},
                                 {"toc", toc},
                                 {"landmarks", landmarks},
                                 {"page_list", page_list}},
                                "epub/nav.xhtml");
}

}  // namespace bb::epub
