// Zero-config: recognises the real book's folder layout when there is no book.toml.
//   manuscripts/NN-*.md            Simplified Chinese, the source edition (00 is the preface)
//   book-en/introduction.md, chapterNN.md        English
//   book-zh-tw/introduction.md, chapterNN.md     Traditional Chinese
//   book-ru/book/preface.md, chapterN.md         Russian
#include <algorithm>
#include <fstream>

#include "book/config.hpp"
#include "book/output_names.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

std::vector<ChapterEntry> scan_chapters(const fs::path& folder) {
  std::vector<ChapterEntry> out;
  std::error_code ec;
  inputs::note_folder(folder);
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".md") continue;
    auto c = chapter_from_file(entry.path().filename());
    if (!c) continue;  // README.md, notes and the like are not chapters
    out.push_back(*c);
  }
  std::sort(out.begin(), out.end(),
            [](const ChapterEntry& a, const ChapterEntry& b) { return a.number < b.number; });
  // Two files claiming the same chapter (e.g. a draft next to the final): keep the first by name.
  out.erase(std::unique(out.begin(), out.end(),
                        [](const ChapterEntry& a, const ChapterEntry& b) { return a.number == b.number; }),
            out.end());
  return out;
}

std::string first_heading(const fs::path& file) {
  inputs::note_file(file);
  std::ifstream in(file);
  std::string line;
  bool fenced = false;
  while (std::getline(in, line)) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced || !line.starts_with("# ")) continue;
    std::string title = line.substr(2);
    if (auto brace = title.find(" {"); brace != std::string::npos && title.back() == '}') title.erase(brace);
    while (!title.empty() && (title.back() == ' ' || title.back() == '\r')) title.pop_back();
    return title;
  }
  return {};
}

// A preface headed "前言" or "Preface" names the chapter, not the book.
bool is_preface_word(const std::string& heading) {
  for (const auto& l : lang::all_languages())
    if (heading == l.label("preface")) return true;
  for (const char* w : {"Introduction", "Foreword", "序言", "序", "引言", "Введение"})
    if (heading == w) return true;
  return false;
}

// The book's title as a reader finds it: the README's first heading (the book's root, then the source
// edition's folder), else the source preface's first heading when it names more than "Preface".
std::string title_from_book(const fs::path& root, const Edition& source) {
  for (const fs::path& readme : {root / "README.md", root / source.folder / "README.md"})
    if (std::string t = first_heading(readme); !t.empty()) return t;
  for (const auto& c : source.chapters)
    if (c.number == 0)
      if (std::string t = first_heading(root / source.folder / c.file); !t.empty() && !is_preface_word(t))
        return t;
  return {};
}

}  // namespace

std::optional<Config> infer_config(const fs::path& root, Diagnostics& diags) {
  struct Known {
    const char* id;
    const char* lang;
    const char* folder;
    const char* site_path;
  };
  static const Known known[] = {
      {"zh", "zh-Hans", "manuscripts", ""},
      {"en", "en", "book-en", "en/"},
      {"zh-tw", "zh-Hant", "book-zh-tw", "zh-tw/"},
      {"ru", "ru", "book-ru/book", "ru/"},
  };
  Config cfg;
  cfg.root = root;
  cfg.calculations = root / "calculations";
  for (const auto& k : known) {
    fs::path folder = root / k.folder;
    inputs::note_file(folder);
    if (!fs::is_directory(folder)) continue;
    auto chapters = scan_chapters(folder);
    if (chapters.empty()) continue;
    Edition e;
    e.id = k.id;
    e.lang = k.lang;
    e.name = lang::language(k.lang).name;  // the language's own name, from languages/*.toml
    e.folder = k.folder;
    e.site_path = k.site_path;
    e.download_name = real_book_download_name(e);
    e.chapters = std::move(chapters);
    e.labels = default_labels(e.lang);
    e.numbers = default_numbers(e.lang);
    cfg.editions.push_back(std::move(e));
  }
  if (cfg.editions.empty()) {
    diags.error({root, 0, 0},
                "no book.toml, and the folder does not have a known book layout (manuscripts/NN-*.md, "
                "book-en/chapterNN.md, ...); see docs/configuration.md");
    return std::nullopt;
  }
  // The source edition is the original if present, else the first found; it is served at the root, so
  // a folder holding only book-zh-tw/ has its site at the root (docs/configuration.md).
  cfg.source_edition = cfg.editions.front().id;
  cfg.editions.front().site_path = "";
  std::string title = title_from_book(root, cfg.editions.front());
  if (title.empty()) {
    title = root.filename().string();
    diags.warning({root, 0, 0}, "no title found (no README.md heading, and the preface's heading is only \"" +
                                    cfg.editions.front().labels.preface + "\"): using the folder name `" +
                                    title + "`; set it with `[book] title = \"…\"` in book.toml");
  }
  cfg.title = title;
  for (auto& e : cfg.editions) e.title = title;
  // A book that has not been set up for the checks yet: dangling hand-written references warn.
  cfg.plain_references = Policy::Warning;
  return cfg;
}

}  // namespace bb::book
