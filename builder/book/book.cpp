// Loads the chapters of a book's editions through the Markdown front end, in parallel.
#include "book/book.hpp"

#include <algorithm>
#include <future>

#include "lang/language.hpp"
#include "markdown/frontend.hpp"

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

// The words that open hand-numbered captions and callouts: the built-in vocabulary plus every
// edition's configured labels (their text before `{}`).
markdown::Options front_end_options(const Config& config) {
  markdown::Options opt;
  auto add = [](std::vector<std::string>& words, const std::string& pattern) {
    std::string w = pattern.substr(0, pattern.find("{}"));
    while (!w.empty() && w.back() == ' ') w.pop_back();
    if (w.empty()) return;
    for (const auto& x : words)
      if (x == w) return;
    words.push_back(w);
  };
  // Captions may be written in any language the tool knows, whatever the edition's language.
  for (const auto& l : lang::all_languages()) {
    for (auto [words, kind] : {std::pair{&opt.words.figure, "figure"},
                               {&opt.words.table, "table"},
                               {&opt.words.example, "example"},
                               {&opt.words.experiment, "experiment"},
                               {&opt.words.think, "think"}})
      if (auto it = l.lead_words.find(kind); it != l.lead_words.end())
        for (const auto& w : it->second) add(*words, w);
  }
  for (const auto& e : config.editions) {
    for (auto [words, kind] : {std::pair{&opt.words.figure, "figure"},
                               {&opt.words.table, "table"},
                               {&opt.words.example, "example"},
                               {&opt.words.experiment, "experiment"},
                               {&opt.words.think, "think"}})
      if (auto it = e.lead_words.find(kind); it != e.lead_words.end())
        for (const auto& w : it->second) add(*words, w);
    add(opt.words.figure, e.labels.figure);
    add(opt.words.table, e.labels.table);
    add(opt.words.example, e.labels.example);
    add(opt.words.experiment, e.labels.experiment);
  }
  return opt;
}

}  // namespace

std::optional<ParseCache::Entry> ParseCache::find(const std::filesystem::path& path) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(path);
  if (it == entries_.end()) return std::nullopt;
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

doc::Node parse_cached(const std::filesystem::path& path, Diagnostics& diags,
                       const markdown::Options& options, ParseCache* cache) {
  if (!cache) return markdown::parse_file(path, diags, options);
  std::error_code ec;
  auto mtime = std::filesystem::last_write_time(path, ec);
  auto size = std::filesystem::file_size(path, ec);
  if (auto hit = cache->find(path); hit && !ec && hit->mtime == mtime && hit->size == size) {
    for (auto& d : hit->diags) diags.add(std::move(d));
    return std::move(hit->root);
  }
  Diagnostics local;
  ParseCache::Entry entry{mtime, size, markdown::parse_file(path, local, options), local.all()};
  for (const auto& d : entry.diags) diags.add(d);
  doc::Node root = entry.root;
  if (!ec) cache->store(path, std::move(entry));
  return root;
}

}  // namespace

Book load_book(Config config, Diagnostics& diags, const std::vector<std::string>& only, ParseCache* cache) {
  Book book;
  book.config = std::move(config);
  for (const auto& id : only) {
    if (!book.config.edition(id)) {
      std::string known;
      for (const auto& e : book.config.editions) known += (known.empty() ? "" : ", ") + e.id;
      diags.error({book.config.config_file, 0, 0}, "no edition `" + id + "` (editions: " + known + ")");
    }
  }
  const markdown::Options options = front_end_options(book.config);
  std::vector<std::future<Chapter>> jobs;
  for (const auto& e : book.config.editions) {
    if (!only.empty() && std::find(only.begin(), only.end(), e.id) == only.end()) continue;
    EditionBook eb;
    eb.edition = e;
    book.editions.push_back(std::move(eb));
    for (const auto& entry : e.chapters) {
      auto path = book.config.root / e.folder / entry.file;
      jobs.push_back(std::async(std::launch::async, [path, entry, &diags, &options, cache] {
        Chapter c;
        c.key = entry.key;
        c.number = entry.number;
        c.path = path;
        c.root = parse_cached(path, diags, options, cache);
        for (const auto& b : c.root.children) {
          if (b.kind == doc::Kind::Heading && b.level == 1) {
            c.title = doc::plain_text(b.children);
            break;
          }
        }
        return c;
      }));
    }
  }
  std::size_t job = 0;
  for (auto& eb : book.editions) {
    for (std::size_t i = 0; i < eb.edition.chapters.size(); ++i) eb.chapters.push_back(jobs[job++].get());
  }
  return book;
}

}  // namespace bb::book
