// The EPUB builder: copies each chapter's tree into the EPUB's addressing, renders it as XHTML with
// the HTML writer, adds the figures (PDFs through the shared cache), the package and navigation
// documents, and zips it all in a fixed order with fixed timestamps.
#include "epub/epub.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <set>

#include "book/output_names.hpp"
#include "book/paths.hpp"
#include "diag/parallel.hpp"
#include "diag/progress.hpp"
#include "epub/accessibility.hpp"
#include "epub/addressing.hpp"
#include "epub/archive_record.hpp"
#include "epub/package.hpp"
#include "epub/zip.hpp"
#include "figures/figures.hpp"
#include "figures/svg_clean.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "output/staging.hpp"
#include "pages/page_record.hpp"
#include "text/digest.hpp"
#include "writers/escape.hpp"
#include "writers/html.hpp"
#include "writers/template.hpp"

namespace bb::epub {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;
using writers::escape_xml;

namespace {

constexpr const char* kPackageDir = "EPUB/";
constexpr const char* kStylesheet = "book.css";

// A figure's bytes, within the bound every figure is read with.
std::string read_bytes(const fs::path& p) {
  inputs::note_file(p);
  auto read = inputs::read_bounded(p, figures::kMaxFigureBytes);
  if (!read.ok()) throw FatalError(p.string() + ": " + inputs::read_problem(read, figures::kMaxFigureBytes));
  return std::move(read.bytes);
}

// Images keep their path relative to the edition folder, as on the site (`images/figure-4-1.png`),
// limited to characters every reading system and epubcheck accept in a file name. A name that had to
// change (a path outside the edition folder, spaces, non-ASCII) gets a short hash to stay unique: of
// its path in the book, so that the EPUB is the same wherever the book is checked out.
std::string image_href(const fs::path& source, const std::string& ext, const fs::path& folder,
                       const fs::path& root, std::set<std::string>& used) {
  fs::path rel = source.lexically_relative(folder);
  if (rel.empty()) rel = source.filename();
  rel.replace_extension(ext);
  std::string name;
  bool changed = false;
  for (const auto& part : rel) {
    std::string s = part.string();
    if (s == ".." || s == ".") {
      changed = true;
      continue;
    }
    if (!name.empty()) name += '/';
    for (char c : s) {
      unsigned char u = static_cast<unsigned char>(c);
      if (std::isalnum(u) || c == '-' || c == '_' || c == '.') {
        name += c;
      } else {
        name += '_';
        changed = true;
      }
    }
  }
  if (name.find('/') == std::string::npos) name = "images/" + name;  // not beside the package document
  if (changed || used.count(name)) {
    std::string stem = name.substr(0, name.size() - ext.size());
    name = stem + "-" + text::sha256_hex(source.lexically_relative(root).generic_string()).substr(0, 8) + ext;
  }
  used.insert(name);
  return name;
}

std::string heading_label(const Node& h) {
  std::string text = doc::plain_text(h.children);
  return h.number().empty() ? text : h.number() + " " + text;
}

// The chapter and its level-2 sections (with their level-3 subsections) for the navigation document.
NavEntry nav_entry(const Node& root, const book::Chapter& c, const std::string& href) {
  NavEntry entry{c.title.empty() ? c.key : c.title, href, {}};
  bool titled = false;
  for (const auto& n : root.children) {
    if (n.kind != Kind::Heading) continue;
    std::string label = heading_label(n);
    if (label.empty()) continue;
    if (n.level() == 1 && !titled) {
      entry.label = label;
      titled = true;
    } else if (n.level() == 2 && !n.id().empty()) {
      entry.children.push_back({label, href + "#" + n.id(), {}});
    } else if (n.level() == 3 && !n.id().empty() && !entry.children.empty()) {
      entry.children.back().children.push_back({label, href + "#" + n.id(), {}});
    }
  }
  return entry;
}

// The cover: --cover (the user's own file), else the edition's `cover` in book.toml (confined to the
// book like every path a book names), else cover.png/.jpg in its folder.
fs::path find_cover(const book::Book& book, const EpubOptions& options, const book::Edition& edition,
                    const fs::path& folder, Diagnostics& diags) {
  if (!options.cover.empty()) return options.cover;
  book::PathGuard guard(book.config.root);
  if (!edition.cover.empty()) {
    auto c = guard.confine(folder / edition.cover);
    SourceLoc at{book.config.config_file.empty() ? folder : book.config.config_file, 0, 0};
    if (!c.ok()) {
      diags.error(at,
                  "cover `" + edition.cover.generic_string() + "` of edition " + edition.id + " " + c.error);
      return {};
    }
    return c.path;
  }
  for (const char* name : {"cover.png", "cover.jpg", "cover.jpeg"})
    if (auto c = guard.confine(folder / name); c.ok() && fs::is_regular_file(c.path)) return c.path;
  return {};
}

std::time_t source_time_of(const book::Book& book, const EpubOptions& options) {
  if (options.modified) return *options.modified;
  std::vector<fs::path> files;
  if (!book.config.config_file.empty()) files.push_back(book.config.config_file);
  for (const auto& eb : book.editions)
    for (const auto& c : eb.chapters) files.push_back(c.path);
  return repo::source_time(options.repository, files);
}

// The print pages of an edition: before which block of which chapter each page of its PDF starts.
struct PrintPages {
  std::string source;                                      // the PDF's file name
  std::vector<std::map<std::size_t, std::string>> breaks;  // per chapter: block index → page label
};

// A page label usable in an id and a fragment as it is ("iv", "12").
bool plain_label(const std::string& label) {
  return std::ranges::all_of(label, [](unsigned char c) { return std::isalnum(c) != 0; });
}

// From the page record of the edition's PDF, when there is one made from that very PDF and these
// very blocks (else nothing: no page list, no claim). A page is marked before the first block that
// starts on it, in reading order; a page met again later (a float) is not marked twice.
std::optional<PrintPages> print_pages(const book::Book& book, const book::EditionBook& eb,
                                      const std::vector<Node>& roots, const EpubOptions& options) {
  if (options.print_out.empty()) return std::nullopt;
  const std::string name = book::output_file(book.config, eb.edition, ".pdf");
  const fs::path pdf = options.print_out / "pdf" / name;
  const fs::path file = pages::record_path(output::cache_dir(options.print_out), eb.edition.id);
  inputs::note_file(pdf);  // a later `epub` run is not a replay of this one once either changes
  inputs::note_file(file);
  std::vector<std::pair<std::string, const doc::Node*>> chapters;
  for (std::size_t i = 0; i < roots.size(); ++i) chapters.emplace_back(eb.chapters[i].key, &roots[i]);
  auto record = pages::valid_record(file, pdf, chapters);
  if (!record) return std::nullopt;
  std::map<std::string, std::string> page_of(record->pages.begin(), record->pages.end());
  PrintPages p{name, std::vector<std::map<std::size_t, std::string>>(roots.size())};
  std::set<std::string> marked;
  for (std::size_t c = 0; c < roots.size(); ++c) {
    for (std::size_t b = 0; b < roots[c].children.size(); ++b) {
      auto it = page_of.find(pages::block_id(eb.chapters[c].key, b));
      if (it == page_of.end() || !plain_label(it->second) || !marked.insert(it->second).second) continue;
      p.breaks[c][b] = it->second;
    }
  }
  if (marked.empty()) return std::nullopt;
  return p;
}

// `roots` are the edition's chapter trees, which the EPUB rewrites to its own addressing.
std::vector<EpubFile> build_edition(const book::Book& book, const book::EditionBook& eb,
                                    std::vector<Node> roots, const EpubOptions& options, std::time_t modified,
                                    Diagnostics& diags) {
  const book::Edition& e = eb.edition;
  const fs::path folder = (book.config.root / e.folder).lexically_normal();
  const lang::Language& words = lang::language(e.lang);
  // Read before the links are rewritten: the record's digest is of the blocks as resolved.
  const std::optional<PrintPages> print = print_pages(book, eb, roots, options);

  Addressing a;
  const std::string repo = options.repository.web_url;
  for (const auto& c : eb.chapters) a.chapters.push_back({c.key, c.key + ".xhtml"});

  // Figures: each image file once, prepared in parallel (PDFs rendered, or taken from the cache).
  std::vector<figures::Request> requests;
  std::vector<std::string> assets;
  std::set<std::string> requested;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    doc::walk(roots[i], [&](const Node& n) {
      const std::string* asset = n.kind == Kind::Image ? n.attr("asset") : nullptr;
      if (!asset || !requested.insert(*asset).second) return;
      requests.push_back({book.config.root / *asset, n.loc, n.attr("chart-svg")});
      assets.push_back(*asset);
    });
  }
  fs::path cover = find_cover(book, options, eb.edition, folder, diags);
  if (!cover.empty()) requests.push_back({cover.lexically_normal(), {cover, 0, 0}});
  figures::FigureCache cache(options.figure_cache, book.config.root);
  auto prepared = cache.prepare_all(requests, diags, "epub " + e.id);

  std::set<std::string> used;
  std::vector<std::pair<std::string, figures::Prepared>> images;  // href → file
  std::string cover_href;
  if (!cover.empty() && prepared.back()) {
    cover_href = "cover-image" + prepared.back()->extension;
    used.insert(cover_href);
    images.emplace_back(cover_href, *prepared.back());
  }
  for (std::size_t i = 0; i < requests.size() - (cover.empty() ? 0 : 1); ++i) {
    if (!prepared[i]) continue;
    std::string href = image_href(requests[i].source, prepared[i]->extension, folder, book.config.root, used);
    a.images[assets[i]] = href;
    images.emplace_back(href, *prepared[i]);
  }
  std::sort(images.begin(), images.end(), [](const auto& x, const auto& y) { return x.first < y.first; });

  for (std::size_t i = 0; i < roots.size(); ++i) rewrite_links(roots[i], a.chapters[i], a, diags);

  PackageDocument package;
  package.metadata = {
      identifier_for((repo.empty() ? "bookbuild:" + book::output_name(book.config) : repo) + "#" + e.id),
      e.title.empty() ? book.config.title : e.title,
      e.subtitle,
      book.config.authors,
      e.lang,
      book.config.rights,
      modified};
  package.manifest.push_back({"nav", "nav.xhtml", "application/xhtml+xml", "nav"});
  package.manifest.push_back({"css", kStylesheet, "text/css", ""});

  std::vector<EpubFile> files;
  files.push_back({"mimetype", "application/epub+zip", false});
  files.push_back(
      {"META-INF/container.xml", container_document(std::string(kPackageDir) + "package.opf"), true});
  std::size_t package_slot = files.size();
  files.push_back({});  // the package document, written once the manifest is complete
  std::size_t nav_slot = files.size();
  files.push_back({});
  files.push_back({std::string(kPackageDir) + kStylesheet, writers::load_template("epub/book.css"), true});

  const std::string title = escape_xml(package.metadata.title);
  NavDocument nav{e.lang,
                  package.metadata.title,
                  words.word("epub.contents"),
                  words.word("epub.landmarks"),
                  kStylesheet,
                  {},
                  {},
                  {},
                  {}};
  if (!cover_href.empty()) {
    files.push_back({std::string(kPackageDir) + "cover.xhtml",
                     writers::fill_template(writers::load_template("epub/cover.xhtml"),
                                            {{"lang", escape_xml(e.lang)},
                                             {"title", title},
                                             {"stylesheet", kStylesheet},
                                             {"image", escape_xml(cover_href)}},
                                            "epub/cover.xhtml"),
                     true});
    package.manifest.push_back({"cover", "cover.xhtml", "application/xhtml+xml", ""});
    package.spine.push_back("cover");
    nav.landmarks.push_back({"cover", words.word("epub.cover"), "cover.xhtml"});
  }
  package.spine.push_back("nav");
  nav.landmarks.push_back({"toc", words.word("epub.contents"), "nav.xhtml#toc"});

  // The chapters are rendered in parallel; everything after is in reading order.
  std::vector<std::string> contents(roots.size());
  std::vector<char> has_mathml(roots.size(), 0);
  ProgressCount shown("epub " + e.id, "chapters", roots.size());
  parallel_for(roots.size(), [&](std::size_t i) {
    writers::HtmlOptions ho;
    ho.xhtml = true;
    ho.math = [&](const Node& n) {
      MathMarkup m = options.math(n, diags);
      if (m.mathml) has_mathml[i] = 1;
      return m.markup;
    };
    if (print)
      ho.before_block = [&breaks = print->breaks[i]](std::size_t b) -> std::string {
        auto it = breaks.find(b);
        if (it == breaks.end()) return {};
        return "<span epub:type=\"pagebreak\" role=\"doc-pagebreak\" id=\"page-" + it->second +
               "\" aria-label=\"" + it->second + "\"></span>\n";
      };
    contents[i] = writers::render_html(roots[i], ho);
    shown.step();
  });
  const std::string chapter_template = writers::load_template("epub/chapter.xhtml");
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const book::Chapter& c = eb.chapters[i];
    const ChapterFile& f = a.chapters[i];
    bool mathml = has_mathml[i] != 0;
    std::string content = std::move(contents[i]);
    files.push_back({std::string(kPackageDir) + f.href,
                     writers::fill_template(chapter_template,
                                            {{"lang", escape_xml(e.lang)},
                                             {"title", escape_xml(c.title.empty() ? c.key : c.title)},
                                             {"stylesheet", kStylesheet},
                                             {"section_type", c.number == 0 ? "preface" : "chapter"},
                                             {"content", content}},
                                            "epub/chapter.xhtml"),
                     true});
    std::string id = "c-" + c.key;
    package.manifest.push_back({id, f.href, "application/xhtml+xml", mathml ? "mathml" : ""});
    package.spine.push_back(id);
    nav.toc.push_back(nav_entry(roots[i], c, f.href));
    if (print)
      for (const auto& [block, page] : print->breaks[i])
        nav.pages.push_back({page, f.href + "#page-" + page, {}});
    if (i == 0 || (c.number > 0 && eb.chapters[i - 1].number == 0)) {
      // The body starts at the first numbered chapter (after a preface), or at the first file.
      std::erase_if(nav.landmarks, [](const NavLandmark& l) { return l.type == "bodymatter"; });
      nav.landmarks.push_back({"bodymatter", nav.toc.back().label, f.href});
    }
  }

  for (std::size_t i = 0; i < images.size(); ++i) {
    const auto& [href, img] = images[i];
    bool is_cover = href == cover_href;
    std::string id = is_cover ? "cover-image" : "img-" + std::to_string(i + 1);
    package.manifest.push_back({id, href, img.media_type, is_cover ? "cover-image" : ""});
    if (is_cover) package.cover_image_id = id;
    // PNG, JPEG and GIF are compressed already; deflating them again only costs time.
    files.push_back(
        {std::string(kPackageDir) + href, read_bytes(img.file), img.media_type == "image/svg+xml"});
  }

  AccessibilityFacts facts = accessibility_facts(roots, std::ranges::count(has_mathml, 1) > 0, diags);
  if (print) {
    facts.page_list = true;
    nav.pages_title = words.word("epub.pages");
    package.page_source = print->source;
  }
  package.accessibility = accessibility_metadata(facts);
  files[package_slot] = {std::string(kPackageDir) + "package.opf", package_document(package), true};
  files[nav_slot] = {std::string(kPackageDir) + "nav.xhtml", nav_document(nav), true};
  return files;
}

}  // namespace

MathMarkup tex_as_text(const doc::Node& math, Diagnostics&) {
  bool display = math.kind == Kind::DisplayMath;
  return {(display ? "\\[" : "\\(") + escape_xml(math.text) + (display ? "\\]" : "\\)"), false};
}

std::vector<EpubFile> build_files(const book::Book& book, const book::EditionBook& edition,
                                  const EpubOptions& options, Diagnostics& diags) {
  std::vector<Node> roots;
  for (const auto& c : edition.chapters) roots.push_back(c.root);
  return build_edition(book, edition, std::move(roots), options, source_time_of(book, options), diags);
}

std::string zip_files(std::vector<EpubFile> files, std::time_t modified, std::string_view earlier) {
  ZipWriter zip;
  for (auto& f : files) zip.add(f.name, std::move(f.data), f.compress, f.unchanged);
  return zip.finish(modified, earlier);
}

std::time_t source_time(const book::Book& book, const EpubOptions& options) {
  return source_time_of(book, options);
}

EpubOutput render_epub(book::Book& book, book::EditionBook& eb, const EpubOptions& options,
                       std::time_t modified, Diagnostics& diags) {
  const std::string name = options.name.empty() ? book::output_name(book.config) : options.name;
  std::vector<Node> roots;
  for (auto& c : eb.chapters) roots.push_back(std::move(c.root));
  auto files = build_edition(book, eb, std::move(roots), options, modified, diags);
  progress().status("epub " + eb.edition.id, "compressing");
  // --name names every edition's file; else the edition's download-name, as the site links it.
  const std::string file = options.name.empty() ? book::output_file(book.config, eb.edition, ".epub")
                                                : name + "-" + eb.edition.id + ".epub";
  EpubOutput out{options.out / file, {}, false, {}};
  EarlierArchive earlier = earlier_archive(options.archive_cache, out.path);
  if (!options.archive_cache.empty()) {
    bool listed = true;  // every entry has its line in the record
    out.entries = modified_line(modified);
    for (auto& f : files) {
      std::string line = entry_line(f);
      f.unchanged = !earlier.bytes.empty() && earlier.entries.contains(line);
      if (f.name.find('\n') == std::string::npos)
        out.entries += line;
      else
        listed = false;
    }
    if (listed && !earlier.bytes.empty() && out.entries == earlier.body) {
      out.bytes = std::move(earlier.bytes);
      out.unchanged = true;
      return out;
    }
  }
  out.bytes = zip_files(std::move(files), modified, earlier.bytes);
  out.unchanged = !earlier.bytes.empty() && out.bytes == earlier.bytes;
  return out;
}

std::vector<fs::path> write_epubs(const std::vector<EpubOutput>& outputs, const EpubOptions& options,
                                  Diagnostics& diags) {
  std::vector<fs::path> written;
  if (diags.has_errors()) return written;  // the previous EPUBs stay as they were
  output::create_output_dir(options.out);  // a clear error when --out cannot be written
  for (const auto& [path, bytes, unchanged, entries] : outputs) {
    if (!unchanged) {
      output::write_file_atomic(path, bytes);
      if (!options.archive_cache.empty()) write_archive_record(options.archive_cache, path, bytes, entries);
    }
    written.push_back(path);
    if (!options.quiet) std::cerr << "epub: " << path.string() << " (" << bytes.size() / 1024 << " KiB)\n";
  }
  return written;
}

std::vector<fs::path> build_epubs(book::Book book, const EpubOptions& options, Diagnostics& diags) {
  const std::time_t modified = source_time_of(book, options);
  std::vector<EpubOutput> outputs;
  for (auto& eb : book.editions) outputs.push_back(render_epub(book, eb, options, modified, diags));
  return write_epubs(outputs, options, diags);
}

}  // namespace bb::epub
