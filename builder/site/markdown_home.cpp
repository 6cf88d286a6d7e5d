// Markdown home pages (see markdown_home.hpp). A home page is not a chapter: it is not numbered, not
// in the search, and its links are mapped here: to a chapter's page when they name a manuscript, to
// the repository's web page of a file otherwise, and kept as written when neither is known.
#include "site/markdown_home.hpp"

#include "book/layout_meta.hpp"
#include "filters/mkdocs_ids.hpp"
#include "markdown/frontend.hpp"
#include "site/site.hpp"
#include "text/url.hpp"

namespace bb::site {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

namespace {

// `to` relative to the folder of the page `from` (both site paths).
std::string relative_href(const std::string& from, const std::string& to) {
  std::size_t common = 0;
  for (std::size_t i = 0; i < from.size() && i < to.size() && from[i] == to[i]; ++i)
    if (from[i] == '/') common = i + 1;
  return up_from(from.substr(common)) + to.substr(common);
}

std::string link_target(const book::Book& book, const repo::Repository& repository, const fs::path& home,
                        const std::string& page, const std::string& url) {
  const auto kind = text::classify_url(url);
  if (kind == text::UrlKind::Script || kind == text::UrlKind::Data)
    return "";  // never carried, as in chapters
  if (kind != text::UrlKind::Relative) return url;
  const auto hash = url.find('#');
  const std::string fragment = hash == std::string::npos ? "" : url.substr(hash);
  const fs::path file = (home.parent_path() / text::percent_decode(url.substr(0, hash))).lexically_normal();
  for (const auto& eb : book.editions)
    for (const auto& c : eb.chapters)
      if (c.path.lexically_normal() == file)
        return relative_href(page, chapter_page(eb.edition, c.key)) + fragment;
  const fs::path rel = file.lexically_relative(repository.toplevel);
  if (!rel.empty() && *rel.begin() != ".." && !repository.web_url.empty() && fs::exists(file))
    return repository.file_url(rel.generic_string(), fs::is_directory(file),
                               fragment.empty() ? "" : fragment.substr(1));
  return url;
}

}  // namespace

std::optional<std::string> markdown_home_html(const book::Book& book, const book::EditionBook& eb,
                                              const repo::Repository& repository,
                                              const writers::HtmlOptions& options, Diagnostics& diags) {
  const bool is_source = eb.edition.id == book.config.source_edition;
  const fs::path home = book::markdown_home(book.config.root, eb.edition, is_source);
  if (home.empty()) return std::nullopt;
  Node root = markdown::parse_file(home, diags);
  // Its headings get the ids MkDocs gave them: the page is the same address as before.
  filters::mark_mkdocs_ids(root);
  const std::string page = eb.edition.site_path + "index.html";
  doc::walk(root, [&](Node& n) {
    if (n.kind == Kind::Heading && n.id().empty()) n.rare().id = *n.attr("mkdocs-id");
    if (n.kind == Kind::Link) n.rare().url = link_target(book, repository, home, page, n.url());
  });
  return writers::render_html(root, options);
}

}  // namespace bb::site
