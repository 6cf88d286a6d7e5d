// The real book's folder layout, the base of every configuration (book.toml overrides what it names):
//   manuscripts/NN-*.md            Simplified Chinese, the source edition (00 is the preface)
//   book-en/introduction.md, chapterNN.md        English
//   book-zh-tw/introduction.md, chapterNN.md     Traditional Chinese
//   book-ru/book/preface.md, chapterN.md         Russian
#include <algorithm>
#include <fstream>

#include "book/config.hpp"
#include "book/layout_meta.hpp"
#include "book/output_names.hpp"
#include "book/paths.hpp"
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

}  // namespace

Config detect_layout(const fs::path& root) {
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
    // A layout folder that is a link leading out of the book is not the book's: nothing is read there.
    if (!fs::is_directory(folder) || !PathGuard(root).confine(folder).ok()) continue;
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
    e.mkdocs_ids = true;  // the real book's site was MkDocs: its readers' links name those ids
    e.detected = true;
    cfg.origins["edition." + e.id] = "layout: " + std::string(k.folder) + "/";
    cfg.editions.push_back(std::move(e));
  }
  if (cfg.editions.empty()) return cfg;
  // The source edition is the original if present, else the first found; it is served at the root, so
  // a folder holding only book-zh-tw/ has its site at the root (docs/configuration.md).
  cfg.source_edition = cfg.editions.front().id;
  cfg.editions.front().site_path = "";
  infer_metadata(root, cfg);  // titles per edition, subtitles, authors
  // A book that has not been set up for the checks yet: dangling hand-written references warn, and its
  // translations, made from older commits of the source, may lag it without blocking a build.
  cfg.plain_references = Policy::Warning;
  cfg.edition_structure = Policy::Warning;
  return cfg;
}

std::optional<Config> infer_config(const fs::path& root, Diagnostics& diags) {
  Config cfg = detect_layout(root);
  if (cfg.editions.empty()) {
    diags.error({root, 0, 0},
                "no book.toml, and the folder does not have a known book layout (manuscripts/NN-*.md, "
                "book-en/chapterNN.md, ...); see docs/configuration.md");
    return std::nullopt;
  }
  return cfg;
}

}  // namespace bb::book
