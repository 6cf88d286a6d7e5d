// Book assembly for LaTeX: link and image resolution for the writer, the template, the source map.
#include "typeset/book_tex.hpp"
#include "figures/figures.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "book/site_address.hpp"
#include "diag/progress.hpp"
#include "figures/memo.hpp"
#include "figures/svg_clean.hpp"
#include "figures/validate.hpp"
#include "lang/language.hpp"
#include "output/staging.hpp"
#include "text/lines.hpp"
#include "typeset/process.hpp"
#include "typeset/svg.hpp"
#include "writers/escape.hpp"
#include "writers/template.hpp"

namespace bb::typeset {

namespace fs = std::filesystem;

namespace {

std::string ascii_slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80 && (std::isalnum(u) || c == '-' || c == '_'))
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// The figures of <dir>/figures, each source file once: planned as hard links (PDF, PNG and JPEG to
// the file itself, SVG to its PDF in the figure cache), or, without a cache, SVG converted straight
// into `convert_dir`.
class FigureSet {
 public:
  FigureSet(fs::path convert_dir, fs::path cache, Diagnostics& diags)
      : convert_dir_(std::move(convert_dir)), cache_(std::move(cache)), diags_(diags) {}

  // The path for \includegraphics (relative to book.tex), or "" when the figure cannot be printed.
  // The link resolver has confined and checked every image of the book (attr `asset`).
  std::string add(const fs::path& root, const doc::Node& image) {
    const std::string* dest = image.attr("dest");
    const std::string* asset = image.attr("asset");
    if (dest && *dest == "url") {
      diags_.warning(image.loc,
                     "image `" + image.url() + "` is not downloaded for print; the PDF shows its URL");
      return "";
    }
    if (!asset) return "";  // refused by the resolver, which reported why
    fs::path src = root / *asset;
    const fs::path named = src;  // a chart's file is its cache entry; its name stays the spec's
    if (const std::string* chart = image.attr("chart-svg")) {
      // A drawn chart: printed from its SVG, stored in the cache under its bytes.
      std::string err;
      auto stored = figures::store_generated(cache_.empty() ? convert_dir_ / "charts" : cache_,
                                             {src, image.loc, chart}, err);
      if (!stored) {
        diags_.error(image.loc, err);
        return "";
      }
      src = stored->file;
    }
    if (auto it = done_.find(src.native()); it != done_.end()) return it->second;
    std::string& result = done_[src.native()];
    const auto id = figures::identify(src);
    if (!id) {
      diags_.error(image.loc, "image `" + image.url() + "` does not exist");
      return result;
    }
    // The same validation as the site's and the EPUB's figures: XeLaTeX would otherwise stop on an
    // empty or corrupt file with an error far from the manuscript line. A file that passed it in an
    // earlier run and has not changed since is not read again.
    figures::Memo* memo = cache_.empty() ? nullptr : &figures::Memo::of(cache_);
    if (!memo || !memo->find(src, figures::Memo::kValid, *id)) {
      if (std::string refusal = figures::image_refusal(src, root); !refusal.empty()) {
        diags_.error(image.loc, refusal, figures::image_refusal_kind(refusal));
        return result;
      }
      if (memo) memo->put(src, figures::Memo::kValid, *id, "");
    }
    std::string ext = src.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string stem = ascii_slug(named.stem().string());
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%03zu-", done_.size());
    std::string name = "figures/" + std::string(prefix) + (stem.empty() ? "figure" : stem);
    if (ext == ".svg") {
      name += ".pdf";
      std::string err;
      // Cleaned as for every output (figures/svg_clean.hpp); librsvg converts what is shipped.
      auto svg = figures::cleaned_svg_file(src, root, cache_.empty() ? convert_dir_ : cache_, image.loc,
                                           diags_, &*id);
      if (!svg) return result;
      if (cache_.empty()) {
        fs::create_directories(convert_dir_ / "figures");
        err = svg_to_pdf(*svg, convert_dir_ / name);
      } else {
        std::optional<figures::FileId> entry_id;
        // The SVG shipped as it is has the identity taken above; a cleaned copy is another file.
        if (auto entry = svg_pdf_entry(*svg, cache_, err, *svg == src ? &*id : nullptr, &entry_id))
          links_.push_back({name, std::move(*entry), entry_id});
      }
      if (!err.empty()) {
        diags_.error(image.loc, "cannot convert `" + image.url() + "` to PDF: " + err);
        return result;
      }
    } else if (ext == ".pdf" || ext == ".png" || ext == ".jpg" || ext == ".jpeg") {
      // A PDF is printed as it is, but refused as the site and the EPUB refuse it (a PDF Poppler cannot
      // open or render would stop XeLaTeX far from the manuscript line): by the same preparation,
      // whose PNG the site then finds in the cache.
      if (ext == ".pdf" && !figures::FigureCache(check_dir(), root).prepare({src, image.loc}, diags_))
        return result;
      name += ext;
      // Linked like the site's figures: nothing writes to them, and an editor writes a new file.
      links_.push_back({name, src, id});
    } else {
      diags_.error(image.loc, "image `" + image.url() + "`: XeLaTeX takes SVG (converted), PDF, PNG or JPEG");
      return result;
    }
    result = name;
    return result;
  }

  [[nodiscard]] std::size_t count() const { return done_.size(); }
  // Where a PDF figure's check renders it: the figure cache, or without one a folder outside the output.
  [[nodiscard]] fs::path check_dir() const {
    return cache_.empty() ? fs::temp_directory_path() / "bookbuild-figure-check" : cache_;
  }
  std::vector<LatexFolder::Link> take_links() { return std::move(links_); }

 private:
  fs::path convert_dir_;
  fs::path cache_;
  Diagnostics& diags_;
  std::map<std::string, std::string> done_;  // by the path's bytes (fs::path compares by components)
  std::vector<LatexFolder::Link> links_;
};

// The edition's own fonts (book.toml `[edition.fonts]`) in the language's LaTeX set-up: each one
// replaces the family of the line that sets that font (its options, such as `[Scale=MatchLowercase]`
// or `[AutoFakeSlant]`, stay), or is added after the set-up when the language sets none.
std::string with_fonts(std::string setup, const book::PrintLook& look) {
  const std::pair<const char*, const book::PrintLook::Font*> commands[] = {
      {"\\setmainfont", &look.main},        {"\\setsansfont", &look.sans},
      {"\\setmonofont", &look.mono},        {"\\setCJKmainfont", &look.cjk},
      {"\\setCJKsansfont", &look.cjk_sans}, {"\\setCJKmonofont", &look.cjk_mono}};
  std::string added;
  for (const auto& [command, font] : commands) {
    if (font->name.empty()) continue;
    const std::string open = std::string(command) + "{";
    std::size_t at = 0;
    while ((at = setup.find(open, at)) != std::string::npos && at > 0 && setup[at - 1] != '\n') ++at;
    std::size_t close = at == std::string::npos ? at : setup.find('}', at + open.size());
    if (close != std::string::npos) {
      setup.replace(at + open.size(), close - at - open.size(), font->name);
      continue;
    }
    const bool cjk = std::string_view(command).find("CJK") != std::string_view::npos;
    if (cjk && setup.find("xeCJK") == std::string::npos && setup.find("ctex") == std::string::npos &&
        added.find("xeCJK") == std::string::npos)
      added += "\\usepackage{xeCJK}\n";
    added += open + font->name + "}\n";
  }
  if (!added.empty()) {
    if (!setup.empty() && setup.back() != '\n') setup += '\n';
    setup += "% The edition's fonts (book.toml [edition.fonts]):\n" + added;
  }
  return setup;
}

// The cover (book.toml `pdf-cover`): its file, linked into the folder's figures/, and what prints it
// in the template's {{cover}} slot — the first page of a PDF or an image scaled to the page
// (pdfpages), or a TeX file of the book's templates/ read in as it is.
struct Cover {
  std::string package;  // for the preamble
  std::string tex;      // for {{cover}}
  std::vector<LatexFolder::Link> links;
};
Cover plan_cover(const book::PrintLook& look) {
  if (look.cover.empty()) return {};
  std::string ext = look.cover.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".jpeg") ext = ".jpg";
  const std::string name = "figures/cover" + ext;  // the numbered figures never take this name
  std::vector<LatexFolder::Link> links{{name, look.cover, std::nullopt}};
  if (ext == ".tex") return {"", "\\input{" + name + "}\n", std::move(links)};
  // The cover's back is left blank, without a page number, when the title page starts on a right page.
  return {"\\usepackage{pdfpages}\n",
          "\\includepdf[pages=1]{" + name + "}\n{\\pagestyle{empty}\\cleardoublepage}\n", std::move(links)};
}

}  // namespace

PlannedLatex plan_latex_book(const book::Book& book, const book::EditionBook& eb, Diagnostics& diags,
                             const fs::path& figure_cache, const fs::path& convert_dir) {
  const auto& e = eb.edition;
  PlannedLatex result;
  FigureSet figures(convert_dir, figure_cache, diags);

  std::string body;
  std::vector<writers::SourceMark> body_marks;
  int body_lines = 0;
  ProgressCount shown("latex " + e.id, "chapters", eb.chapters.size());
  // A sample (`pdf --chapter N`) writes one chapter of a book resolved whole: its references to the
  // others print their text, linked to the site where the book has one (docs/latex.md).
  std::set<std::string> written;
  for (const auto& c : eb.chapters) written.insert(c.key);
  auto elsewhere = [&](const std::string& chapter, const std::string& target) -> std::optional<std::string> {
    if (written.count(chapter)) return std::nullopt;
    return book::site_address(book.config, e, chapter, target);
  };
  for (const auto& c : eb.chapters) {
    writers::LatexOptions o;
    o.chapter = c.key;
    o.labels = &e.labels;
    o.block_marks = true;
    o.elsewhere = elsewhere;
    o.image = [&](const doc::Node& img) { return figures.add(book.config.root, img); };
    // Links to chapters carry attrs chapter/target (the writer makes them \hyperref); the resolver
    // made every other link it kept an absolute URL.
    o.link = [](const doc::Node& link) -> writers::LatexLink {
      const std::string* dest = link.attr("dest");
      if (dest && *dest == "url") return {"", link.url()};
      return {};
    };
    auto chapter = writers::render_latex(c.root, o);
    body += "% --- " + c.key + ": " + fs::relative(c.path, book.config.root).generic_string() + "\n";
    ++body_lines;
    for (auto m : chapter.marks) {
      m.line += body_lines;
      body_marks.push_back(std::move(m));
    }
    body_lines += static_cast<int>(text::count_newlines(chapter.tex));
    body += chapter.tex;
    shown.step();
  }
  result.figures = figures.count();
  if (!figure_cache.empty()) figures::Memo::of(figure_cache).save();

  std::vector<std::string> authors = book.config.authors;
  auto esc = [](const std::string& s) { return writers::escape_latex(s); };
  std::vector<std::string> escaped_authors;
  for (const auto& a : authors) escaped_authors.push_back(esc(a));
  static const std::string kBody = "\x01body\x01";
  const Cover cover = plan_cover(e.print);
  // The page marks of the EPUB's page list (builder/pages/) are bookbuild's, not the look's: they go
  // before the preamble, so that a book's own templates/latex/preamble.tex need not know them.
  static const std::string kPageMarks = R"(\makeatletter
% The page each top-level block starts on, for the EPUB's page list (builder/pages/, docs/epub.md):
% \bbblock{<chapter>.<block>} before a block only remembers its id (no box, no glue, no paragraph:
% the layout is the same with or without it); the block's first paragraph, wherever it starts (a
% heading's title, a list's first item, a paragraph at the top of a new page), writes the id and
% the page it was shipped out on to the .aux, as \label does. \bbblockpage reads nothing back.
% Not a paragraph of the output routine: a running head built while the page before a chapter is
% shipped out would take the chapter's id to that page.
\providecommand{\bbblockpage}[2]{}
\def\bb@block{}
\providecommand{\bbblock}[1]{\gdef\bb@block{#1}}
\newif\ifbb@output
\AtBeginDocument{\let\bb@outputpage\@outputpage\def\@outputpage{\bb@outputtrue\bb@outputpage}}
\AddToHook{para/begin}{\ifx\bb@block\@empty\else\ifbb@output\else
  \protected@write\@auxout{}{\string\bbblockpage{\bb@block}{\thepage}}\global\let\bb@block\@empty\fi\fi}
\makeatother
)";
  const std::string book_template = writers::load_template("latex/book.tex");
  if (!cover.tex.empty() && book_template.find("{{cover}}") == std::string::npos)
    diags.warning(e.print.cover_loc,
                  "the cover is not printed: " + writers::template_file("latex/book.tex").string() +
                      " has no {{cover}} slot (docs/configuration.md, \"Print look\")");
  std::string tex = writers::fill_template(
      book_template,
      {{"generator", "bookbuild latex --edition " + e.id},
       {"language", with_fonts(lang::language(e.lang).latex_setup, e.print)},
       {"preamble", kPageMarks + cover.package + writers::load_template("latex/preamble.tex")},
       {"cover", cover.tex},
       {"title", esc(e.title.empty() ? book.config.title : e.title)},
       {"subtitle", esc(e.subtitle)},
       {"author", join(escaped_authors, ", ")},
       {"rights", esc(book.config.rights)},
       {"lang", e.lang},
       {"body", kBody}},
      "latex/book.tex");
  auto at = tex.find(kBody);
  if (at == std::string::npos)  // a book's own book.tex without the slot would lose every chapter
    throw FatalError(writers::template_file("latex/book.tex").string() +
                     ": error: the template has no {{body}} slot");
  int offset = static_cast<int>(text::count_newlines(std::string_view(tex).substr(0, at)));
  tex.replace(at, kBody.size(), body);
  std::string srcmap;
  // fs::relative resolves both paths on the disk (a readlink per component): once per file, not
  // once per mark, and the root once (fs::relative(p, root) is exactly this).
  std::map<std::string, std::string> relative;
  const fs::path root = fs::weakly_canonical(book.config.root);
  for (auto& m : body_marks) {
    m.line += offset;
    auto [it, fresh] = relative.try_emplace(m.loc.path.get().native());
    if (fresh) it->second = fs::weakly_canonical(m.loc.path).lexically_relative(root).generic_string();
    srcmap += std::to_string(m.line) + "\t" + it->second + ":" + std::to_string(m.loc.line) + "\n";
  }
  result.marks = std::move(body_marks);
  result.folder.tex = std::move(tex);
  result.folder.srcmap = std::move(srcmap);
  result.folder.links = figures.take_links();
  result.folder.links.insert(result.folder.links.end(), cover.links.begin(), cover.links.end());
  return result;
}

void write_latex_folder(const LatexFolder& folder, const fs::path& dir) {
  if (!folder.links.empty()) fs::create_directories(dir / "figures");
  for (const auto& link : folder.links) output::link_or_copy(link.from, dir / link.name);
  output::write_file(dir / kTexName, folder.tex);
  output::write_file(dir / "book.srcmap", folder.srcmap);
}

bool latex_folder_is(const fs::path& dir, const LatexFolder& folder) {
  std::error_code ec;
  int own = 0;  // book.tex and book.srcmap
  bool has_figures = false;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const fs::file_type type = it->symlink_status(ec).type();
    if (ec) return false;
    if (name == "figures" && type == fs::file_type::directory)
      has_figures = true;
    else if (type != fs::file_type::regular)
      return false;
    else if (name == kTexName || name == "book.srcmap")
      ++own;
    else if (name != "book.aux" && name != "book.toc" && name != "book.out")
      return false;  // TeX's log or PDF, or a stray file: staging would drop it
  }
  if (ec || own != 2 || has_figures == folder.links.empty()) return false;
  if (!output::holds(dir / kTexName, folder.tex) || !output::holds(dir / "book.srcmap", folder.srcmap))
    return false;
  if (folder.links.empty()) return true;
  std::size_t count = 0;
  for (fs::directory_iterator it(dir / "figures", ec), end; !ec && it != end; it.increment(ec)) ++count;
  if (ec || count != folder.links.size()) return false;
  // The names are distinct (numbered), so the same count and every name present is the same set.
  for (const auto& link : folder.links) {
    struct stat here {};
    const auto there = link.id ? link.id : figures::identify(link.from);
    if (::lstat((dir / link.name).c_str(), &here) != 0 || !S_ISREG(here.st_mode) || !there ||
        static_cast<std::uint64_t>(here.st_dev) != there->device ||
        static_cast<std::uint64_t>(here.st_ino) != there->inode)
      return false;  // a copy (across file systems) is not trusted to be current: staged again
  }
  return true;
}

LatexBook write_latex_book(const book::Book& book, const book::EditionBook& eb, const fs::path& dir,
                           Diagnostics& diags, const fs::path& figure_cache) {
  PlannedLatex plan = plan_latex_book(book, eb, diags, figure_cache, dir);
  write_latex_folder(plan.folder, dir);
  return {dir / kTexName, std::move(plan.marks), plan.figures, {}};
}

}  // namespace bb::typeset
