// Head tags and side links of a site page: description, sharing cards, canonical and hreflang, icon,
// view-source and download links.
#include "site/meta.hpp"

#include "book/output_names.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "site/site.hpp"
#include "text/unicode.hpp"
#include "text/url.hpp"
#include "writers/escape.hpp"
#include "writers/template.hpp"

namespace bb::site::meta {

namespace fs = std::filesystem;
using writers::escape_xml;

namespace {

std::string collapse_spaces(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string page_of(const book::EditionBook& eb, const std::string& key) {
  return key.empty() ? eb.edition.site_path + "index.html" : chapter_page(eb.edition, key);
}

std::string tag(const char* attr, const std::string& name, const std::string& content) {
  return "<meta " + std::string(attr) + "=\"" + name + "\" content=\"" + escape_xml(content) + "\">\n";
}

}  // namespace

std::string description(const doc::Node& chapter_root, std::size_t max_chars) {
  std::string first;
  for (const auto& b : chapter_root.children) {
    if (b.kind != doc::Kind::Paragraph) continue;
    first = collapse_spaces(doc::plain_text(b.children));
    if (!first.empty()) break;
  }
  std::u32string chars = text::to_utf32(first);
  if (chars.size() <= max_chars) return first;
  std::size_t cut = max_chars;
  // Back to the last space when the text has one in its second half (Latin, Cyrillic); CJK text is
  // cut between characters.
  std::size_t space = chars.rfind(U' ', cut);
  if (space != std::u32string::npos && space > cut / 2) cut = space;
  chars.resize(cut);
  while (!chars.empty() && (chars.back() == U' ' || chars.back() == U',' || chars.back() == U';'))
    chars.pop_back();
  return text::to_utf8(chars) + "…";
}

std::string absolute_url(const book::Config& config, const std::string& page) {
  return config.site_url + text::percent_encode_path(page);
}

std::string site_root_path(const book::Config& config) {
  const std::string& url = config.site_url;  // checked: http(s)://host[:port]/path/, ending in '/'
  std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return "/";
  std::size_t path = url.find('/', scheme + 3);
  if (path == std::string::npos) return "/";
  std::string root = url.substr(path);
  if (root.find_first_of("?#") != std::string::npos) return "/";
  return root.ends_with('/') ? root : root + "/";
}

std::string favicon_site_path(const book::Config& config) {
  std::string ext = favicon_source(config).extension().string();
  return "assets/favicon" + (ext.empty() ? std::string(".ico") : ext);
}

fs::path favicon_source(const book::Config& config) {
  fs::path source = config.favicon.empty() ? writers::data_dir() / "website" / "favicon.svg" : config.favicon;
  inputs::note_file(source);
  return source;
}

std::string head(const book::Book& book, const Page& page) {
  const auto& cfg = book.config;
  const std::string up = up_from(page.path);
  std::string out = tag("name", "description", page.description);

  std::string icon = favicon_site_path(cfg);
  std::string type = icon.ends_with(".svg") ? "image/svg+xml" : icon.ends_with(".png") ? "image/png" : "";
  out += "<link rel=\"icon\" href=\"" + escape_xml(up + icon) + "\"" +
         (type.empty() ? "" : " type=\"" + type + "\"") + ">\n";

  out += tag("property", "og:type", page.key.empty() ? "book" : "article");
  out += tag("property", "og:title", page.title);
  out += tag("property", "og:description", page.description);
  out += tag("property", "og:site_name", page.edition.edition.title);
  out += tag("name", "twitter:card", "summary");
  if (cfg.site_url.empty()) return out;

  out += "<link rel=\"canonical\" href=\"" + escape_xml(absolute_url(cfg, page.path)) + "\">\n";
  out += tag("property", "og:url", absolute_url(cfg, page.path));
  const book::EditionBook* source = nullptr;
  for (const auto& other : book.editions) {
    if (!page.key.empty() && !other.chapter(page.key)) continue;
    if (other.edition.id == cfg.source_edition) source = &other;
    out += "<link rel=\"alternate\" hreflang=\"" + escape_xml(other.edition.lang) + "\" href=\"" +
           escape_xml(absolute_url(cfg, page_of(other, page.key))) + "\">\n";
  }
  if (source)
    out += "<link rel=\"alternate\" hreflang=\"x-default\" href=\"" +
           escape_xml(absolute_url(cfg, page_of(*source, page.key))) + "\">\n";
  return out;
}

void warn_without_site_url(const book::Config& config, Diagnostics& diags, bool notes) {
  if (!config.site_url.empty() || (config.repository.empty() && !notes)) return;
  // At book.toml when there is one; a book without one is warned at its folder (no file that is not there).
  const SourceLoc at =
      config.config_file.empty() ? SourceLoc{config.root, 0, 0} : SourceLoc{config.config_file, 1, 1};
  const std::string what =
      "no `site-url` in [book]: the site has no canonical URLs, no hreflang alternates and no sitemap "
      "(they must be absolute)";
  // A book with a repository is published somewhere: a warning. A book with no home yet (a new one from
  // `bookbuild init`) is told once, as a note, which no warning count or --max-warnings sees.
  if (config.repository.empty())
    diags.note(at, what + "; set it when the book has a home", "site-url");
  else
    diags.warning(at, what, "site-url");
}

std::string source_link(const repo::Repository& repository, const book::Chapter& chapter,
                        const std::string& lang) {
  if (repository.web_url.empty()) return "";
  fs::path rel = chapter.path.lexically_relative(repository.toplevel);
  if (rel.empty() || *rel.begin() == "..") return "";
  return "<a class=\"view-source\" href=\"" + escape_xml(repository.file_url(rel.generic_string())) + "\">" +
         escape_xml(lang::language(lang).word("site.view-source")) + "</a>";
}

std::vector<Download> downloads(const fs::path& out, const book::Config& config,
                                const book::Edition& edition) {
  std::vector<Download> found;
  for (auto [folder, ext, format] : {std::tuple{"epub", ".epub", "EPUB"}, std::tuple{"pdf", ".pdf", "PDF"}}) {
    // The name `bookbuild epub` / `bookbuild pdf` write for this edition, and nothing else.
    const std::string name = book::output_file(config, edition, ext);
    std::error_code ec;
    inputs::note_file(out / folder / name);  // a download of the site, which `epub`/`pdf` wrote
    if (fs::is_regular_file(out / folder / name, ec))
      found.push_back({"downloads/" + name, format, out / folder / name});
  }
  return found;
}

std::string downloads_html(const std::vector<Download>& files, const std::string& page,
                           const std::string& lang) {
  if (files.empty()) return "";
  std::string up = up_from(page);
  std::string out = "<p class=\"downloads\">" + escape_xml(lang::language(lang).word("site.download")) + ":";
  for (const auto& f : files)
    out += " <a href=\"" + escape_xml(up + f.site_path) + "\" download>" + f.format + "</a>";
  return out + "</p>";
}

}  // namespace bb::site::meta
