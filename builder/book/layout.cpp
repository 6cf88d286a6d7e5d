// Zero-config: recognises the real book's folder layout when there is no book.toml.
//   manuscripts/NN-*.md            Simplified Chinese, the source edition (00 is the preface)
//   book-en/introduction.md, chapterNN.md        English
//   book-zh-tw/introduction.md, chapterNN.md     Traditional Chinese
//   book-ru/book/preface.md, chapterN.md         Russian
#include <algorithm>
#include <fstream>

#include "book/config.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

std::vector<ChapterEntry> scan_chapters(const fs::path& folder) {
  std::vector<ChapterEntry> out;
  std::error_code ec;
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
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) return line.substr(2);
  }
  return {};
}

}  // namespace

std::optional<Config> infer_config(const fs::path& root, Diagnostics& diags) {
  struct Known {
    const char* id;
    const char* lang;
    const char* name;
    const char* folder;
    const char* site_path;
  };
  static const Known known[] = {
      {"zh", "zh-Hans", "简体中文", "manuscripts", ""},
      {"en", "en", "English", "book-en", "en/"},
      {"zh-tw", "zh-Hant", "繁體中文", "book-zh-tw", "zh-tw/"},
      {"ru", "ru", "Русский", "book-ru/book", "ru/"},
  };
  Config cfg;
  cfg.root = root;
  cfg.calculations = root / "calculations";
  for (const auto& k : known) {
    fs::path folder = root / k.folder;
    if (!fs::is_directory(folder)) continue;
    auto chapters = scan_chapters(folder);
    if (chapters.empty()) continue;
    Edition e;
    e.id = k.id;
    e.lang = k.lang;
    e.name = k.name;
    e.folder = k.folder;
    e.site_path = k.site_path;
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
  // The source edition is the original if present, else the first found; it is served at the root.
  cfg.source_edition = cfg.editions.front().id;
  cfg.editions.front().site_path = "";
  std::string title = first_heading(root / "README.md");
  if (title.empty()) title = root.filename().string();
  cfg.title = title;
  for (auto& e : cfg.editions) e.title = title;
  // A book that has not been set up for the checks yet: dangling hand-written references warn.
  cfg.plain_references = Policy::Warning;
  return cfg;
}

}  // namespace bb::book
