// Book configuration: book.toml at the book's root, or defaults inferred from the real book's layout.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bib/bibliography.hpp"
#include "bib/style.hpp"
#include "diag/diagnostics.hpp"

namespace bb::book {

// Localized words for numbered things. Each is a pattern where `{}` stands for the number, so that
// both "Figure {}" and "第 {} 章" can be expressed.
struct Labels {
  std::string figure, table, equation, section, chapter, example, experiment, preface;
};

// How numbers are written in an edition's prose.
struct NumberLocale {
  std::string decimal = ".";
  std::string group = ",";
  int group_min_digits = 4;  // integers with fewer digits are not grouped (Russian: 5)
  const std::map<std::string, long long>* words = nullptr;  // the language's number words, lower case
};

struct ChapterEntry {
  std::filesystem::path file;  // relative to the edition folder
  std::string key;             // stable across editions: "preface", "ch01", ...
  int number = 0;              // 0 for the unnumbered preface
};

// How an edition prints (docs/configuration.md, "Print look"): `[edition.fonts]`, `pdf-cover`, and the
// book-wide `[pdf]` font rules, which every edition's lists include.
struct PrintLook {
  struct Font {
    std::string name;  // a family name as fontconfig and XeLaTeX know it: "Noto Serif CJK SC"
    SourceLoc loc;     // where book.toml names it
  };
  // The fonts that replace the language's (languages/*.toml); an empty name keeps the language's.
  Font main, sans, mono, cjk, cjk_sans, cjk_mono;
  // `check pdf`: every font the PDF must embed, and fonts it must not (matched as a part of an
  // embedded font's name, ignoring case, spaces, `-` and `_`: "Noto Sans CJK" forbids
  // "NotoSansCJKsc-Regular").
  std::vector<Font> required, forbidden;
  std::filesystem::path cover;  // absolute, inside the book: a PDF, PNG, JPEG or .tex; "" = none
  SourceLoc cover_loc;
  [[nodiscard]] std::vector<const Font*> families() const {
    std::vector<const Font*> out;
    for (const Font* f : {&main, &sans, &mono, &cjk, &cjk_sans, &cjk_mono})
      if (!f->name.empty()) out.push_back(f);
    return out;
  }
};

struct Edition {
  std::string id;    // "zh", "en", "zh-tw", "ru"
  std::string lang;  // BCP 47: "zh-Hans", "en", "zh-Hant", "ru"
  std::string name;  // the language's own name for the switcher: "简体中文", "English", ...
  std::string title;
  std::string subtitle;
  std::filesystem::path folder;  // relative to the book root
  std::string site_path;         // "" for the source edition, "en/", ...
  std::filesystem::path cover;   // EPUB cover image, relative to the edition folder (optional)
  // The EPUB's and PDF's file name without extension ("AI-Infra-Book-EN"); empty: the default
  // (book/output_names.hpp). Links that readers keep depend on it, so a book can pin it.
  std::string download_name;
  std::vector<ChapterEntry> chapters;
  Labels labels;
  NumberLocale numbers;
  // Words this edition adds to its language's lead words (languages/*.toml), per kind ("example" →
  // ["算例"]): they open captions and callouts and are recognised as references (`[edition.lead-words]`).
  std::map<std::string, std::vector<std::string>> lead_words;
  // Headings also carry the ids the real book's MkDocs site gave them (filters/mkdocs_ids.hpp): on for
  // the real layout without book.toml, `[site] mkdocs-ids` otherwise.
  bool mkdocs_ids = false;
  PrintLook print;
  // Found in the real book's layout (layout.cpp) rather than declared whole in book.toml: what the
  // layout implies for it (MkDocs addresses, release download names) stays unless book.toml says.
  bool detected = false;
};

enum class Policy { Error, Warning, Ignore };

// A book filter, `[[filter]]` in book.toml (docs/filters.md): a Lua file of the book's `filters/`
// folder run over each chapter's tree, on the parsed tree or after references and numbers are resolved.
struct FilterEntry {
  enum class Stage { Parsed, Resolved };
  std::filesystem::path path;         // absolute, inside the book
  std::string name;                   // as book.toml gives it: "filters/glossary.lua"
  std::vector<std::string> formats;   // `outputs`: "html", "epub", "latex", "check"; empty: all
  std::vector<std::string> editions;  // edition ids; empty: all
  Stage stage = Stage::Resolved;
  SourceLoc loc;  // the [[filter]] table in book.toml
};

// Pandoc citations `[@key]` (docs/manuscripts.md, "Citations"): `[book] bibliography`,
// `citation-style` and `references`.
struct Citations {
  std::shared_ptr<const bib::Bibliography> bibliography;  // null: none given (citations stay as typed)
  bib::Style style = bib::Style::AuthorDate;
  bool at_end = false;  // one list at the end of the last chapter, not one per chapter
  SourceLoc loc;        // `bibliography` in book.toml
};

struct Config {
  std::filesystem::path root;         // absolute book root
  std::filesystem::path config_file;  // book.toml, or empty when inferred
  std::string title;
  std::vector<std::string> authors;
  std::string repository;         // https://github.com/owner/name
  std::string site_url;           // where the site is published, ending in '/'; may be empty
  std::filesystem::path favicon;  // the site's icon (absolute); empty: the one shipped in website/
  std::string rights;
  std::string source_edition;
  std::filesystem::path calculations;  // the calc library's data folder (default <root>/calculations)
  std::vector<Edition> editions;
  Citations citations;
  std::vector<FilterEntry> filters;           // in book.toml order, which is the order they run in
  Policy plain_references = Policy::Error;    // a hand-written "图 4-5" naming no target
  Policy repository_links = Policy::Warning;  // a link into the repository whose target is missing
  // Style rules: none of them makes an output wrong, so none blocks it by default (docs/configuration.md).
  Policy number_punctuation = Policy::Warning;  // a hand number written "9.1" or "9–1" instead of "9-1"
  Policy number_order = Policy::Warning;        // a hand number out of order or of another chapter
  Policy section_order = Policy::Warning;       // a hand section number out of order
  // A translation whose labels or numbered elements differ from the source edition's (check/parity):
  // an error for editions book.toml declares, a warning for a detected layout, whose translations are
  // made from older commits of the source and lag it.
  Policy edition_structure = Policy::Error;
  // Where each value came from, for `--verbose` and for messages: "title" → "README.md:1",
  // "repository" → "git remote `origin`", "edition.zh-tw" → "layout: book-zh-tw/". Only values that
  // were looked for are listed; a value book.toml gives says "book.toml:LINE".
  std::map<std::string, std::string> origins;
  // Old site addresses that become redirect pages to a chapter (`[site] redirects`, site/redirects.hpp).
  struct Redirect {
    std::string from;     // a path of the site, "old/intro.html"
    std::string edition;  // the edition id of the target
    std::string chapter;  // the chapter key, or "" for the edition's home page
    SourceLoc loc;        // in book.toml
  };
  std::vector<Redirect> redirects;

  [[nodiscard]] const Edition* edition(std::string_view id) const;
  [[nodiscard]] const Edition& source() const;
};

// Built-in labels and number locale for a BCP 47 language ("zh-Hans", "zh-Hant", "en", "ru").
Labels default_labels(std::string_view lang);
NumberLocale default_numbers(std::string_view lang);

// Derives the stable chapter key and number from a file name: "04-加速器架构.md" → ("ch04", 4),
// "chapter5.md" → ("ch05", 5), "00-前言.md", "preface.md", "introduction.md" → ("preface", 0).
std::optional<ChapterEntry> chapter_from_file(const std::filesystem::path& file);

// Loads `<root>/book.toml`, or infers the configuration from the real book's folder layout when there
// is none. Problems are reported to `diags` with their place in book.toml; returns nullopt if the
// configuration cannot be used at all.
std::optional<Config> load_config(const std::filesystem::path& root, Diagnostics& diags);

// The layout inference alone: the editions of the real book's folder layout with their chapters,
// titles and what the layout implies (docs/configuration.md, "Zero-config"). It is the base that
// book.toml overrides; with no book.toml and no such layout it is an error.
std::optional<Config> infer_config(const std::filesystem::path& root, Diagnostics& diags);

// The same without diagnostics: a Config with no editions when the folder has no known layout.
Config detect_layout(const std::filesystem::path& root);

// Warnings for what neither book.toml nor the repository gave (a title, ...), once book.toml is read:
// each names a file that exists (book.toml when there is one, else the book folder).
void warn_missing_metadata(const Config& cfg, Diagnostics& diags);

}  // namespace bb::book
