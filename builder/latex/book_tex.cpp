// Book assembly for LaTeX: link and image resolution for the writer, the template, the source map.
#include "latex/book_tex.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "latex/process.hpp"
#include "latex/svg.hpp"
#include "output/staging.hpp"
#include "writers/escape.hpp"
#include "writers/template.hpp"

namespace bb::latex {

namespace fs = std::filesystem;

namespace {

bool is_external(const std::string& url) {
  return url.find("://") != std::string::npos || url.starts_with("mailto:") || url.starts_with("//");
}

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

// Figures copied or converted into <dir>/figures, each source file once.
class FigureSet {
 public:
  FigureSet(fs::path dir, fs::path cache, Diagnostics& diags)
      : dir_(std::move(dir)), cache_(std::move(cache)), diags_(diags) {}

  // The path for \includegraphics (relative to book.tex), or "" when the figure cannot be printed.
  std::string add(const fs::path& chapter_dir, const doc::Node& image) {
    if (is_external(image.url)) {
      diags_.warning(image.loc,
                     "image `" + image.url + "` is not downloaded for print; the PDF shows its URL");
      return "";
    }
    fs::path src = fs::weakly_canonical(chapter_dir / image.url);
    if (auto it = done_.find(src); it != done_.end()) return it->second;
    std::string& result = done_[src];
    if (!fs::is_regular_file(src)) {
      diags_.error(image.loc, "image `" + image.url + "` does not exist");
      return result;
    }
    std::string ext = src.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string stem = ascii_slug(src.stem().string());
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%03zu-", done_.size());
    std::string name = "figures/" + std::string(prefix) + (stem.empty() ? "figure" : stem);
    fs::create_directories(dir_ / "figures");
    if (ext == ".svg") {
      name += ".pdf";
      if (std::string err = svg_to_pdf_cached(src, dir_ / name, cache_); !err.empty()) {
        diags_.error(image.loc, "cannot convert `" + image.url + "` to PDF: " + err);
        return result;
      }
    } else if (ext == ".pdf" || ext == ".png" || ext == ".jpg" || ext == ".jpeg") {
      name += ext;
      // Linked like the site's figures: nothing writes to them, and an editor writes a new file.
      std::error_code ec;
      fs::create_hard_link(src, dir_ / name, ec);
      if (ec) fs::copy_file(src, dir_ / name, fs::copy_options::overwrite_existing);
    } else {
      diags_.error(image.loc, "image `" + image.url + "`: XeLaTeX takes SVG (converted), PDF, PNG or JPEG");
      return result;
    }
    result = name;
    return result;
  }

  [[nodiscard]] std::size_t count() const { return done_.size(); }

 private:
  fs::path dir_;
  fs::path cache_;
  Diagnostics& diags_;
  std::map<fs::path, std::string> done_;
};

}  // namespace

RepositoryInfo repository_info(const book::Config& config) {
  RepositoryInfo info;
  info.url = config.repository;
  while (!info.url.empty() && info.url.back() == '/') info.url.pop_back();
  info.toplevel = config.root;
  if (auto git = find_program("git")) {
    ProcessOptions o;
    o.capture = true;
    o.timeout = std::chrono::seconds(20);
    auto r =
        run_process({git->string(), "-C", config.root.string(), "rev-parse", "--show-toplevel", "HEAD"}, o);
    auto nl = r.out.find('\n');
    if (r.exit_code == 0 && nl != std::string::npos) {
      info.toplevel = r.out.substr(0, nl);
      std::string commit = r.out.substr(nl + 1);
      while (!commit.empty() && std::isspace(static_cast<unsigned char>(commit.back()))) commit.pop_back();
      if (!commit.empty()) info.commit = commit;
    }
  }
  return info;
}

std::string language_family(std::string_view lang) {
  if (lang.starts_with("zh-Hant") || lang == "zh-TW" || lang == "zh-HK") return "zh-hant";
  if (lang.starts_with("zh")) return "zh-hans";
  if (lang.starts_with("ru")) return "ru";
  return "en";
}

std::string pdf_file_name(const book::Config& config, const book::Edition& edition) {
  std::string name;
  if (!config.repository.empty()) {
    std::string repo = config.repository;
    while (!repo.empty() && repo.back() == '/') repo.pop_back();
    name = ascii_slug(repo.substr(repo.find_last_of('/') + 1));
  }
  if (name.empty()) name = ascii_slug(config.root.filename().string());
  if (name.empty()) name = "book";
  return name + "-" + ascii_slug(edition.id) + ".pdf";
}

LatexBook write_latex_book(const book::Book& book, const book::EditionBook& eb, const RepositoryInfo& repo,
                           const fs::path& dir, Diagnostics& diags, const fs::path& figure_cache) {
  const auto& e = eb.edition;
  LatexBook result;
  result.tex = dir / kTexName;
  FigureSet figures(dir, figure_cache, diags);

  std::map<fs::path, std::string> chapter_of;  // manuscript file → chapter key
  for (const auto& c : eb.chapters) chapter_of[fs::weakly_canonical(c.path)] = c.key;

  std::string body;
  std::vector<writers::SourceMark> body_marks;
  int body_lines = 0;
  for (const auto& c : eb.chapters) {
    const fs::path chapter_dir = c.path.parent_path();
    writers::LatexOptions o;
    o.chapter = c.key;
    o.labels = &e.labels;
    o.image = [&](const doc::Node& img) { return figures.add(chapter_dir, img); };
    o.link = [&](const doc::Node& link) -> writers::LatexLink {
      const std::string& url = link.url;
      if (url.empty()) return {};
      if (is_external(url)) return {"", url};
      std::string file = url.substr(0, url.find('#'));
      std::string frag = url.find('#') == std::string::npos ? "" : url.substr(url.find('#') + 1);
      if (file.empty()) return {writers::latex_key(c.key, frag), ""};
      fs::path target = fs::weakly_canonical(chapter_dir / file);
      if (auto it = chapter_of.find(target); it != chapter_of.end())
        return {writers::latex_key(it->second, frag), ""};
      // Anything else in the repository is linked on the repository's web page, at this commit.
      fs::path rel = target.lexically_relative(repo.toplevel);
      if (repo.url.empty() || rel.empty() || rel.native().starts_with("..")) return {};
      return {"", repo.url + "/blob/" + repo.commit + "/" + rel.generic_string() +
                      (frag.empty() ? "" : "#" + frag)};
    };
    auto chapter = writers::render_latex(c.root, o);
    body += "% --- " + c.key + ": " + fs::relative(c.path, book.config.root).generic_string() + "\n";
    ++body_lines;
    for (auto m : chapter.marks) {
      m.line += body_lines;
      body_marks.push_back(std::move(m));
    }
    body_lines += static_cast<int>(std::count(chapter.tex.begin(), chapter.tex.end(), '\n'));
    body += chapter.tex;
  }
  result.figures = figures.count();

  std::string family = language_family(e.lang);
  std::vector<std::string> authors = book.config.authors;
  auto esc = [](const std::string& s) { return writers::escape_latex(s); };
  std::vector<std::string> escaped_authors;
  for (const auto& a : authors) escaped_authors.push_back(esc(a));
  static const std::string kBody = "\x01body\x01";
  std::string tex =
      writers::fill_template(writers::load_template("latex/book.tex"),
                             {{"generator", "bookbuild latex --edition " + e.id},
                              {"language", writers::load_template("latex/lang/" + family + ".tex")},
                              {"preamble", writers::load_template("latex/preamble.tex")},
                              {"title", esc(e.title.empty() ? book.config.title : e.title)},
                              {"subtitle", esc(e.subtitle)},
                              {"author", join(escaped_authors, ", ")},
                              {"rights", esc(book.config.rights)},
                              {"lang", e.lang},
                              {"body", kBody}},
                             "latex/book.tex");
  auto at = tex.find(kBody);
  int offset = static_cast<int>(std::count(tex.begin(), tex.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  tex.replace(at, kBody.size(), body);
  std::string srcmap;
  for (auto& m : body_marks) {
    m.line += offset;
    srcmap += std::to_string(m.line) + "\t" + fs::relative(m.loc.path, book.config.root).generic_string() +
              ":" + std::to_string(m.loc.line) + "\n";
  }
  result.marks = std::move(body_marks);
  output::write_file(result.tex, tex);
  output::write_file(dir / "book.srcmap", srcmap);
  return result;
}

}  // namespace bb::latex
