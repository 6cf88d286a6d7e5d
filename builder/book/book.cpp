// Loads the chapters of a book's editions through the Markdown front end, in parallel.
#include "book/book.hpp"

#include <algorithm>
#include <set>

#include "book/layout_meta.hpp"
#include "book/parse_store.hpp"
#include "diag/parallel.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "markdown/frontend.hpp"
#include "math/mathml.hpp"

namespace bb::book {

const Chapter* EditionBook::chapter(std::string_view key) const {
  for (const auto& c : chapters)
    if (c.key == key) return &c;
  return nullptr;
}

const EditionBook* Book::edition(std::string_view id) const {
  for (const auto& e : editions)
    if (e.edition.id == id) return &e;
  return nullptr;
}

namespace {

// The words that open hand-numbered captions and callouts: every language's (the front end's
// default) plus each edition's configured lead words and labels.
markdown::Options front_end_options(const Config& config) {
  markdown::Options opt;
  opt.citations = config.citations.bibliography != nullptr;
  for (const auto& e : config.editions) {
    for (const auto& [kind, words] : e.lead_words)
      for (const auto& w : words) opt.words.add(kind, w);
    opt.words.add("figure", e.labels.figure);
    opt.words.add("table", e.labels.table);
    opt.words.add("example", e.labels.example);
    opt.words.add("experiment", e.labels.experiment);
  }
  return opt;
}

}  // namespace

std::optional<ParseCache::Entry> ParseCache::find(const std::filesystem::path& path,
                                                  std::filesystem::file_time_type mtime,
                                                  std::uintmax_t size) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(path);
  // Compared before copying: a stale entry is a whole tree.
  if (it == entries_.end() || it->second.mtime != mtime || it->second.size != size) return std::nullopt;
  return it->second;
}

void ParseCache::store(const std::filesystem::path& path, Entry entry) {
  std::lock_guard lock(mutex_);
  entries_[path] = std::move(entry);
}

void ParseCache::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
}

namespace {

// A chapter must be a readable regular file; a folder or a device named in the chapter list is an
// error at its path, not an empty chapter. Returns false after reporting.
bool check_chapter_file(const std::filesystem::path& path, Diagnostics& diags) {
  inputs::note_file(path);
  std::error_code ec;
  auto st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st)) {
    diags.error({path, 0, 0}, "this chapter is a folder, not a Markdown file");
    return false;
  }
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    diags.error({path, 0, 0}, "this chapter is not a regular file");
    return false;
  }
  // A missing chapter is reported by the configuration, at its entry in book.toml.
  return std::filesystem::exists(st);
}

// Through the in-memory cache (`site --serve`), then the parse store on disk (parse_store.hpp), then
// the front end; a parse is kept in both for the next build.
doc::Node parse_cached(const std::filesystem::path& path, Diagnostics& diags,
                       const markdown::Options& options, ParseCache* cache) {
  const bool stored = parse_store_in_use();
  if (!cache && !stored) return markdown::parse_file(path, diags, options);
  std::error_code ec;
  std::filesystem::file_time_type mtime;
  std::uintmax_t size = 0;
  if (cache) {
    mtime = std::filesystem::last_write_time(path, ec);
    size = std::filesystem::file_size(path, ec);
    if (auto hit = ec ? std::nullopt : cache->find(path, mtime, size)) {
      for (auto& d : hit->diags) diags.add(std::move(d));
      return std::move(hit->root);
    }
  }
  const std::optional<SourceId> id = stored ? source_id(path) : std::nullopt;
  std::optional<StoredParse> parse = id ? load_parse(path, *id, options) : std::nullopt;
  if (!parse) {
    Diagnostics local;
    parse.emplace();
    parse->root = markdown::parse_file(path, local, options);
    parse->diags = local.all();
    if (id) {
      // The formula check converts every formula of the chapter anyway: here, on this chapter's
      // thread, and kept with the tree for the next run.
      std::set<std::pair<std::string, bool>> seen;
      doc::walk(parse->root, [&](const doc::Node& n) {
        if (n.kind != doc::Kind::InlineMath && n.kind != doc::Kind::DisplayMath) return;
        const bool display = n.kind == doc::Kind::DisplayMath;
        if (!seen.emplace(n.text, display).second) return;
        parse->formulas.push_back({n.text, display, math::to_mathml_cached(n.text, display)});
      });
      store_parse(path, *id, options, *parse);
      parse->formulas.clear();
    }
  } else {
    for (auto& f : parse->formulas) math::remember_mathml(f.tex, f.display, std::move(f.result));
  }
  for (const auto& d : parse->diags) diags.add(d);
  if (!cache || ec) return std::move(parse->root);
  doc::Node root = parse->root;
  cache->store(path, {mtime, size, std::move(parse->root), std::move(parse->diags)});
  return root;
}

// The plain text of a tree's first level-1 heading (a chapter's or home page's title); empty if none.
std::string first_title(const doc::Node& root) {
  for (const auto& b : root.children)
    if (b.kind == doc::Kind::Heading && b.level() == 1) return doc::plain_text(b.children);
  return "";
}

// Fills chapter `i` of an edition from its manuscript (through the cache when there is one).
void load_chapter(const Config& config, EditionBook& eb, std::size_t i, const markdown::Options& options,
                  Diagnostics& diags, ParseCache* cache) {
  const ChapterEntry& entry = eb.edition.chapters[i];
  Chapter& c = eb.chapters[i];
  c.key = entry.key;
  c.number = entry.number;
  c.path = config.root / eb.edition.folder / entry.file;
  c.title.clear();
  if (!check_chapter_file(c.path, diags)) {
    c.root = doc::Node(doc::Kind::Document, {c.path, 0, 0});
    return;
  }
  c.root = parse_cached(c.path, diags, options, cache);
  if (c.root.children.empty() && c.root.loc.line > 0)
    diags.error({c.path, 0, 0}, "this chapter is empty: it needs at least a level-1 heading (its title)");
  c.title = first_title(c.root);
}

// The Markdown home page of an edition (markdown_home), parsed as a chapter is; none when the book
// has none.
void load_home(const Config& config, EditionBook& eb, const markdown::Options& options, Diagnostics& diags,
               ParseCache* cache) {
  eb.home.reset();
  const bool is_source = eb.edition.id == config.source_edition;
  const std::filesystem::path path = markdown_home(config.root, eb.edition, is_source);
  if (path.empty()) return;
  Chapter& h = eb.home.emplace();
  h.key = "index";
  h.path = path;
  h.root = parse_cached(path, diags, options, cache);
  h.title = first_title(h.root);
}

// Job `i` of an edition's loading: chapter `i`, or its home page when `i` is one past the chapters.
void load_part(const Config& config, EditionBook& eb, std::size_t i, const markdown::Options& options,
               Diagnostics& diags, ParseCache* cache) {
  if (i == eb.chapters.size())
    load_home(config, eb, options, diags, cache);
  else
    load_chapter(config, eb, i, options, diags, cache);
}

}  // namespace

void reload_chapter(Book& book, std::size_t edition, std::size_t chapter, Diagnostics& diags,
                    ParseCache* cache) {
  load_chapter(book.config, book.editions.at(edition), chapter, front_end_options(book.config), diags, cache);
}

Book book_outline(Config config, Diagnostics& diags, const std::vector<std::string>& only) {
  Book book;
  book.config = std::move(config);
  for (const auto& id : only) {
    if (!book.config.edition(id)) {
      std::string known;
      for (const auto& e : book.config.editions) known += (known.empty() ? "" : ", ") + e.id;
      // At book.toml, or at the book folder when its editions come from the layout alone.
      const auto& cfg = book.config;
      diags.error({cfg.config_file.empty() ? cfg.root : cfg.config_file, 0, 0},
                  "no edition `" + id + "` (editions: " + known + ")");
    }
  }
  for (const auto& e : book.config.editions) {
    if (!only.empty() && std::find(only.begin(), only.end(), e.id) == only.end()) continue;
    EditionBook eb;
    eb.edition = e;
    eb.chapters.resize(e.chapters.size());
    for (std::size_t i = 0; i < e.chapters.size(); ++i) {
      Chapter& c = eb.chapters[i];
      c.key = e.chapters[i].key;
      c.number = e.chapters[i].number;
      c.path = book.config.root / e.folder / e.chapters[i].file;
      c.root = doc::Node(doc::Kind::Document, {c.path, 0, 0});
    }
    book.editions.push_back(std::move(eb));
  }
  return book;
}

void load_edition(Book& book, std::size_t edition, Diagnostics& diags, ParseCache* cache) {
  const markdown::Options options = front_end_options(book.config);
  EditionBook& eb = book.editions.at(edition);
  // The home page is one more job beside the chapters (index chapters.size()).
  parallel_for(eb.chapters.size() + 1,
               [&](std::size_t i) { load_part(book.config, eb, i, options, diags, cache); });
}

void unload_edition(Book& book, std::size_t edition) {
  EditionBook& eb = book.editions.at(edition);
  for (auto& c : eb.chapters) c.root = doc::Node(doc::Kind::Document, {c.path, 0, 0});
  eb.home.reset();
}

Book load_book(Config config, Diagnostics& diags, const std::vector<std::string>& only, ParseCache* cache) {
  Book book = book_outline(std::move(config), diags, only);
  const markdown::Options options = front_end_options(book.config);
  std::vector<std::pair<std::size_t, std::size_t>> jobs;  // (edition, chapter); chapters.size(): home
  for (std::size_t e = 0; e < book.editions.size(); ++e)
    for (std::size_t i = 0; i <= book.editions[e].chapters.size(); ++i) jobs.emplace_back(e, i);
  parallel_for(jobs.size(), [&](std::size_t j) {
    load_part(book.config, book.editions[jobs[j].first], jobs[j].second, options, diags, cache);
  });
  return book;
}

}  // namespace bb::book
