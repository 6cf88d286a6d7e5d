// A loaded book: every edition's chapters parsed into document trees, in reading order.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::book {

struct Chapter {
  std::string key;             // stable across editions: "preface", "ch04"
  int number = 0;              // 0 for the preface
  std::filesystem::path path;  // absolute manuscript path
  doc::Node root;
  std::string title;  // plain text of the first level-1 heading (hand numbers included)
};

struct EditionBook {
  Edition edition;
  std::vector<Chapter> chapters;
  // The edition's home page written in Markdown (the real layout's website/index.md or
  // index.<id>.md, book::markdown_home), loaded with the chapters and resolved like them (references,
  // links, images, computed numbers, math), but not numbered and not in the chapter list. Its key is
  // "index" (its page is the edition's index.html). None when the book has no such page: the site
  // then generates its home page.
  std::optional<Chapter> home;
  [[nodiscard]] const Chapter* chapter(std::string_view key) const;
};

struct Book {
  Config config;
  std::vector<EditionBook> editions;  // in book.toml order
  [[nodiscard]] const EditionBook* edition(std::string_view id) const;
};

// Parsed chapters kept between builds (`site --serve`): a file whose size and modification time are
// unchanged is not parsed again; its tree and its diagnostics are reused.
class ParseCache {
 public:
  struct Entry {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    doc::Node root;
    std::vector<Diagnostic> diags;
  };
  // The entry of `path` if it was parsed at this modification time and size.
  std::optional<Entry> find(const std::filesystem::path& path, std::filesystem::file_time_type mtime,
                            std::uintmax_t size) const;
  void store(const std::filesystem::path& path, Entry entry);
  void clear();

 private:
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, Entry> entries_;
};

// Parses every chapter of the selected editions (all when `only` is empty). Unknown edition ids in
// `only` are reported. Problems in the manuscripts go to `diags`; the book is returned regardless so
// that one run reports everything.
Book load_book(Config config, Diagnostics& diags, const std::vector<std::string>& only = {},
               ParseCache* cache = nullptr);

// The selected editions (all when `only` is empty, unknown ids reported as load_book does) with
// their chapters' keys, numbers and paths but no trees: a book to load one edition at a time
// (load_edition, then unload_edition once its outputs are written), so that a large book is never
// held whole. Code that reads only the chapter lists of the other editions (language switchers,
// sitemaps, the cross-edition checks of labels and bindings) reads this book unchanged.
Book book_outline(Config config, Diagnostics& diags, const std::vector<std::string>& only = {});

// Parses every chapter of `book.editions[edition]`, as load_book does.
void load_edition(Book& book, std::size_t edition, Diagnostics& diags, ParseCache* cache = nullptr);

// Drops the trees of an edition's chapters; keys, paths and titles stay.
void unload_edition(Book& book, std::size_t edition);

// Parses chapter `chapter` of `book.editions[edition]` again from its manuscript (`site --serve`,
// after the file changed): its tree, title and parse diagnostics, as load_book would give them.
void reload_chapter(Book& book, std::size_t edition, std::size_t chapter, Diagnostics& diags,
                    ParseCache* cache = nullptr);

}  // namespace bb::book
