// Reads book.toml into a Config, reporting every problem with its place in the file.
#include "book/config.hpp"
#include "book/toml_read.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "book/bibliography_config.hpp"
#include "book/filter_config.hpp"
#include "book/output_names.hpp"
#include "book/paths.hpp"
#include "book/print_config.hpp"
#include "book/site_config.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "repo/repository.hpp"
#include "text/suggest.hpp"
#include "text/url.hpp"

namespace bb::book {

namespace fs = std::filesystem;

const Edition* Config::edition(std::string_view id) const {
  for (const auto& e : editions)
    if (e.id == id) return &e;
  return nullptr;
}

const Edition& Config::source() const {
  if (const auto* e = edition(source_edition)) return *e;
  return editions.front();
}

Labels default_labels(std::string_view lang) {
  const auto& l = lang::language(lang);
  return {l.label("figure"),  l.label("table"),   l.label("equation"),   l.label("section"),
          l.label("chapter"), l.label("example"), l.label("experiment"), l.label("preface")};
}

NumberLocale default_numbers(std::string_view lang) {
  const auto& l = lang::language(lang);
  return {l.decimal, l.group, l.group_min_digits, &l.number_words};
}

std::optional<ChapterEntry> chapter_from_file(const fs::path& file) {
  std::string stem = file.stem().string();
  std::string lower = stem;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "preface" || lower == "introduction" || lower == "index")
    return ChapterEntry{file, "preface", 0};
  // Leading digits ("04-…"), or digits after a "chapter"/"ch" prefix ("chapter04", "ch4").
  std::string_view s = lower;
  if (s.starts_with("chapter"))
    s.remove_prefix(7);
  else if (s.starts_with("ch"))
    s.remove_prefix(2);
  while (!s.empty() && (s.front() == '-' || s.front() == '_')) s.remove_prefix(1);
  std::size_t n = 0;
  while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
  if (n == 0 || n > 3) return std::nullopt;
  int number = std::stoi(std::string(s.substr(0, n)));
  if (number == 0) return ChapterEntry{file, "preface", 0};
  char key[16];
  std::snprintf(key, sizeof key, "ch%02d", number);
  return ChapterEntry{file, key, number};
}

namespace {

class Reader {
 public:
  Reader(fs::path file, Diagnostics& diags) : file_(std::move(file)), diags_(diags) {}

  // Reads an optional string; reports a type error at the value.
  std::string str(const toml::table& t, std::string_view key, std::string fallback = {}) {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    if (auto v = n->value<std::string>()) return *v;
    diags_.error(toml_place(file_, n), "`" + std::string(key) + "` must be a string");
    return fallback;
  }

  std::vector<std::string> str_list(const toml::table& t, std::string_view key) {
    std::vector<std::string> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const auto* arr = n->as_array();
    if (!arr) {
      diags_.error(toml_place(file_, n), "`" + std::string(key) + "` must be an array of strings");
      return out;
    }
    for (const auto& item : *arr) {
      if (auto v = item.value<std::string>())
        out.push_back(*v);
      else
        diags_.error(toml_place(file_, &item), "`" + std::string(key) + "` must contain only strings");
    }
    return out;
  }

  Policy policy(const toml::table& t, std::string_view key, Policy fallback) {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    auto v = n->value<std::string>();
    if (v == "error") return Policy::Error;
    if (v == "warning") return Policy::Warning;
    if (v == "ignore") return Policy::Ignore;
    diags_.error(toml_place(file_, n),
                 "`" + std::string(key) + "` must be \"error\", \"warning\" or \"ignore\"");
    return fallback;
  }

  // Unknown keys are usually typos; say so instead of silently ignoring them.
  void known_keys(const toml::table& t, std::initializer_list<std::string_view> keys,
                  std::string_view where) {
    for (const auto& [k, v] : t) {
      if (std::find(keys.begin(), keys.end(), k.str()) == keys.end()) {
        SourceLoc at = toml_place(file_, &v);
        if (k.source().begin.line > 0)
          at = {file_, static_cast<int>(k.source().begin.line), static_cast<int>(k.source().begin.column)};
        diags_.warning(at, "unknown key `" + std::string(k.str()) + "` in " + std::string(where) +
                               text::did_you_mean(k.str(), {keys.begin(), keys.end()}));
      }
    }
  }

  const fs::path& file() const { return file_; }
  Diagnostics& diags() { return diags_; }

 private:
  fs::path file_;
  Diagnostics& diags_;
};

void read_labels(Reader& r, const toml::table& t, Labels& labels) {
  r.known_keys(t, {"figure", "table", "equation", "section", "chapter", "example", "experiment", "preface"},
               "[edition.labels]");
  auto set = [&](std::string_view key, std::string& field) {
    std::string v = r.str(t, key, field);
    if (key != "preface" && v.find("{}") == std::string::npos) {
      r.diags().error(toml_place(r.file(), t.get(key)),
                      "label `" + std::string(key) + "` must contain `{}` where the number goes");
      return;
    }
    field = v;
  };
  set("figure", labels.figure);
  set("table", labels.table);
  set("equation", labels.equation);
  set("section", labels.section);
  set("chapter", labels.chapter);
  set("example", labels.example);
  set("experiment", labels.experiment);
  set("preface", labels.preface);
}

void read_numbers(Reader& r, const toml::table& t, NumberLocale& numbers) {
  r.known_keys(t, {"decimal", "group", "group-min-digits"}, "[edition.numbers]");
  numbers.decimal = r.str(t, "decimal", numbers.decimal);
  numbers.group = r.str(t, "group", numbers.group);
  if (const auto* n = t.get("group-min-digits")) {
    if (auto v = n->value<int64_t>(); v && *v >= 1 && *v <= 99)
      numbers.group_min_digits = static_cast<int>(*v);
    else
      r.diags().error(toml_place(r.file(), n), "`group-min-digits` must be an integer from 1 to 99");
  }
  // "1.234" would read as a thousand and as one: every number of the edition would be ambiguous.
  if (!numbers.decimal.empty() && numbers.decimal == numbers.group) {
    const toml::node* at = t.get("group") ? t.get("group") : t.get("decimal");
    r.diags().error(toml_place(r.file(), at ? at : &t),
                    "`decimal` and `group` are both `" + numbers.decimal + "`: a number such as 1" +
                        numbers.decimal +
                        "234 would be ambiguous (a thousand, or one); give them different values");
  }
}

void read_lead_words(Reader& r, const toml::table& t,
                     std::map<std::string, std::vector<std::string>>& words) {
  r.known_keys(t, {"figure", "table", "equation", "example", "experiment", "think"}, "[edition.lead-words]");
  for (std::string_view kind : {"figure", "table", "equation", "example", "experiment", "think"}) {
    auto list = r.str_list(t, kind);
    std::erase_if(list, [](const std::string& w) { return w.empty(); });
    if (!list.empty()) words[std::string(kind)] = std::move(list);
  }
}

// A Markdown file in an edition's folder that no edition lists in `chapters` is read by nothing: most
// often a chapter the author forgot to add. A warning at the file (README.md is a folder's notes).
void warn_orphan_chapters(const Config& cfg, Diagnostics& diags) {
  std::map<fs::path, std::set<fs::path>> listed;  // folder → the chapter files editions list there
  for (const auto& e : cfg.editions)
    if (!e.detected)  // a detected edition's chapters are its folder's chapter files: nothing is left out
      for (const auto& c : e.chapters) listed[cfg.root / e.folder].insert(c.file.lexically_normal());
  for (const auto& [folder, files] : listed) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path name = it->path().filename();
      if (name.extension() != ".md" || !it->is_regular_file(ec) || files.count(name)) continue;
      std::string lower = name.string();
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower == "readme.md" || lower.starts_with(".")) continue;
      diags.warning({it->path(), 0, 0},
                    "this Markdown file is in an edition's folder but not in its `chapters` (book.toml): "
                    "no output includes it; list it there, or move it out of the folder");
    }
  }
}

// "book.toml:12": where a value of book.toml is, for --verbose.
std::string origin_in(const fs::path& file, const toml::node* n) {
  const SourceLoc at = toml_place(file, n);
  return file.filename().string() + ":" + std::to_string(at.line);
}

// The detected edition an [[edition]] table names, which it overrides or replaces: the same id, or the
// same folder. Null when it declares a new edition.
const Edition* named_detected(const Config& base, const toml::table& t, const fs::path& root) {
  const auto id = t["id"].value<std::string>();
  const auto folder = t["folder"].value<std::string>();
  for (const auto& d : base.editions) {
    const bool same_folder =
        folder && (root / *folder).lexically_normal() == (root / d.folder).lexically_normal();
    if ((id && *id == d.id) || same_folder) return &d;
  }
  return nullptr;
}

void read_policies(Reader& r, const toml::table& policy, Config& cfg) {
  r.known_keys(policy,
               {"plain-references", "repository-links", "number-punctuation", "number-order", "section-order",
                "edition-structure", "style"},
               "[policy]");
  // `style` sets the three style rules at once; a rule named on its own wins over it.
  const Policy style = r.policy(policy, "style", cfg.number_punctuation);
  if (policy.contains("style")) cfg.number_punctuation = cfg.number_order = cfg.section_order = style;
  cfg.plain_references = r.policy(policy, "plain-references", cfg.plain_references);
  cfg.repository_links = r.policy(policy, "repository-links", cfg.repository_links);
  cfg.number_punctuation = r.policy(policy, "number-punctuation", cfg.number_punctuation);
  cfg.number_order = r.policy(policy, "number-order", cfg.number_order);
  cfg.section_order = r.policy(policy, "section-order", cfg.section_order);
  cfg.edition_structure = r.policy(policy, "edition-structure", cfg.edition_structure);
  for (const auto& [key, value] : policy)
    cfg.origins["policy." + std::string(key.str())] = origin_in(r.file(), &value);
}

// One [[edition]]: over the detected edition it names (`start`, when it lists no `chapters` of its own:
// then only the keys it gives change), or declared whole. Returns false when it is no table.
bool read_edition(Reader& r, const toml::node& node, const Edition* start, Config& cfg,
                  std::set<std::string>& ids) {
  const fs::path& file = r.file();
  Diagnostics& diags = r.diags();
  const fs::path& root = cfg.root;
  const auto* t = node.as_table();
  if (!t) {
    diags.error(toml_place(file, &node), "[[edition]] must be a table");
    return false;
  }
  r.known_keys(*t,
               {"id", "lang", "name", "title", "subtitle", "folder", "site-path", "chapters", "labels",
                "numbers", "cover", "lead-words", "download-name", "fonts", "pdf-cover"},
               "[[edition]]");
  Edition e = start ? *start : Edition{};
  e.id = r.str(*t, "id", e.id);
  const std::string detected_lang = e.lang;
  e.lang = r.str(*t, "lang", e.lang);
  if (e.id.empty()) diags.error(toml_place(file, &node), "[[edition]] needs an `id`");
  if (e.lang.empty())
    diags.error(toml_place(file, &node), "[[edition]] needs a BCP 47 `lang` such as \"zh-Hans\"");
  if (!e.id.empty() && !ids.insert(e.id).second)
    diags.error(toml_place(file, t->get("id")), "duplicate edition id `" + e.id + "`");
  cfg.origins["edition." + e.id] =
      start ? cfg.origins["edition." + e.id] + ", " + origin_in(file, &node) : origin_in(file, &node);
  e.name = r.str(*t, "name", start && e.lang == detected_lang ? e.name : e.lang);
  if (!start) cfg.origins.erase("edition." + e.id + ".title");  // what the layout read is not this edition's
  e.title = r.str(*t, "title", start ? e.title : cfg.title);
  if (t->contains("title")) cfg.origins["edition." + e.id + ".title"] = origin_in(file, t->get("title"));
  e.subtitle = r.str(*t, "subtitle", e.subtitle);
  e.folder = r.str(*t, "folder", start ? e.folder.generic_string() : e.id);
  e.site_path = r.str(*t, "site-path", start ? e.site_path : e.id + "/");
  e.cover = r.str(*t, "cover", e.cover.generic_string());
  e.download_name = r.str(*t, "download-name", e.download_name);
  PathGuard guard(root);
  // Every path book.toml names stays inside the book (folders, chapters, cover), and every output
  // path inside --out (the edition id names files, site-path a folder of the site).
  if (!e.id.empty() && (!is_safe_relative(e.id) || e.id.find('/') != std::string::npos || e.id == "."))
    diags.error(toml_place(file, t->get("id")),
                "edition id `" + e.id + "` must be a plain name (it names output files)");
  if (!is_safe_relative(e.folder.generic_string()) || !guard.confine(root / e.folder).ok())
    diags.error(toml_place(file, t->get("folder")),
                "edition folder `" + e.folder.generic_string() + "` is outside the book");
  if (!e.download_name.empty() && !is_download_name(e.download_name))
    diags.error(toml_place(file, t->get("download-name")),
                "download-name `" + e.download_name +
                    "` must be a plain file name without extension (letters, digits, `-`, `_`, `.`)");
  if (!is_safe_relative(e.site_path))
    diags.error(
        toml_place(file, t->get("site-path")),
        "site-path `" + e.site_path + "` must be a relative folder inside the site (no `..`, not absolute)");
  inputs::note_folder(root / e.folder);  // its chapters, its cover.png or cover.jpg
  if (!e.cover.empty()) {
    auto cover = guard.confine(root / e.folder / e.cover);
    if (!cover.ok())
      diags.error(toml_place(file, t->get("cover")),
                  "cover image `" + e.cover.generic_string() + "` " + cover.error);
    else if (!fs::is_regular_file(cover.path))
      diags.error(toml_place(file, t->get("cover")),
                  "cover image `" + (e.folder / e.cover).generic_string() + "` does not exist");
  }
  if (!e.site_path.empty() && e.site_path.back() != '/') e.site_path += '/';
  if (!start || e.lang != detected_lang) {
    e.labels = default_labels(e.lang);
    e.numbers = default_numbers(e.lang);
  }
  if (const auto* l = t->get_as<toml::table>("labels")) read_labels(r, *l, e.labels);
  if (const auto* n = t->get_as<toml::table>("numbers")) read_numbers(r, *n, e.numbers);
  if (const auto* w = t->get_as<toml::table>("lead-words")) read_lead_words(r, *w, e.lead_words);

  if (const toml::node* chapters_node = t->get("chapters")) {
    e.chapters.clear();
    std::set<std::string> keys;
    for (const auto& name : r.str_list(*t, "chapters")) {
      auto entry = chapter_from_file(name);
      if (!entry) {
        diags.error(toml_place(file, chapters_node),
                    "cannot tell the chapter number of `" + name +
                        "`: name chapter files like `04-title.md`, `chapter04.md` or `preface.md`");
        continue;
      }
      if (!keys.insert(entry->key).second)
        diags.error(toml_place(file, chapters_node),
                    "two files in `chapters` are chapter `" + entry->key + "`");
      if (auto c = guard.confine(root / e.folder / entry->file); !c.ok()) {
        diags.error(toml_place(file, chapters_node), "chapter file `" + name + "` " + c.error);
        continue;
      }
      if (!fs::exists(root / e.folder / entry->file))
        diags.error(toml_place(file, chapters_node),
                    "chapter file `" + (e.folder / entry->file).generic_string() + "` does not exist");
      e.chapters.push_back(*entry);
    }
  } else if (!start) {
    diags.error(toml_place(file, &node), "edition `" + e.id + "` lists no `chapters`");
  }
  cfg.editions.push_back(std::move(e));
  return true;
}

// The editions: the detected ones in the layout's order, each replaced in place by the [[edition]]
// that names it, then the editions book.toml declares anew, in its order.
void read_editions(Reader& r, const toml::array& tables, const Config& base, Config& cfg) {
  Diagnostics& diags = r.diags();
  const fs::path& file = r.file();
  std::vector<const toml::node*> named(base.editions.size(), nullptr), declared;
  for (const auto& node : tables) {
    const Edition* d = node.as_table() ? named_detected(base, *node.as_table(), cfg.root) : nullptr;
    if (d && !named[d - base.editions.data()])
      named[d - base.editions.data()] = &node;
    else
      declared.push_back(&node);
  }
  cfg.editions.clear();
  std::set<std::string> ids;
  for (std::size_t i = 0; i < base.editions.size(); ++i) {
    const Edition& d = base.editions[i];
    if (!named[i]) {
      // An [[edition]] that named another detected edition may still take this one's id or folder.
      const bool taken = std::any_of(tables.begin(), tables.end(), [&](const toml::node& n) {
        const auto* t = n.as_table();
        const auto folder = t ? (*t)["folder"].value<std::string>() : std::nullopt;
        return t && ((*t)["id"].value<std::string>() == d.id ||
                     (folder &&
                      (cfg.root / *folder).lexically_normal() == (cfg.root / d.folder).lexically_normal()));
      });
      if (taken) continue;
      ids.insert(d.id);
      cfg.editions.push_back(d);
      continue;
    }
    // An [[edition]] listing its own `chapters` (or another id) declares the edition whole.
    const auto* t = named[i]->as_table();
    const auto folder = (*t)["folder"].value<std::string>();
    const bool over =
        !t->contains("chapters") && (*t)["id"].value<std::string>() == d.id &&
        (!folder || (cfg.root / *folder).lexically_normal() == (cfg.root / d.folder).lexically_normal());
    read_edition(r, *named[i], over ? &d : nullptr, cfg, ids);
  }
  for (const auto* node : declared) read_edition(r, *node, nullptr, cfg, ids);
  // Checks across editions, once every edition is known.
  std::set<std::string> paths, downloads;
  for (const auto& e : cfg.editions) {
    const toml::node* at = nullptr;
    for (const auto& node : tables)
      if (const auto* t = node.as_table(); t && t->get("id") && t->get("id")->value<std::string>() == e.id)
        at = &node;
    if (!paths.insert(e.site_path).second)
      diags.error(
          toml_place(file, at && at->as_table()->get("site-path") ? at->as_table()->get("site-path") : at),
          "two editions share site path `" + e.site_path + "`");
    if (!e.download_name.empty() && !downloads.insert(e.download_name).second)
      diags.error(
          toml_place(file,
                     at && at->as_table()->get("download-name") ? at->as_table()->get("download-name") : at),
          "two editions share download-name `" + e.download_name + "`");
  }
}

// What book.toml did not give, from the repository and the layout: `repository` from the Git remote,
// the title from the repository's name when no file names the book, each edition's title from the book's.
void finish_config(Config& cfg) {
  if (cfg.repository.empty()) {
    cfg.repository = repo::remote_web_url(cfg.root);
    if (!cfg.repository.empty()) cfg.origins["repository"] = "git remote of " + cfg.root.filename().string();
  }
  if (cfg.title.empty() && !cfg.source().title.empty()) {
    cfg.title = cfg.source().title;
    const auto own = cfg.origins.find("edition." + cfg.source_edition + ".title");
    cfg.origins["title"] = own != cfg.origins.end() ? own->second : "the source edition's title";
  }
  if (cfg.title.empty()) {
    const std::string url = repo::normalize_repository_url(cfg.repository);
    cfg.title = url.empty() ? cfg.root.filename().string() : url.substr(url.find_last_of('/') + 1);
  }
  for (auto& e : cfg.editions)
    if (e.title.empty()) e.title = cfg.title;
}

}  // namespace

std::optional<Config> load_config(const fs::path& root_in, Diagnostics& diags) {
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::absolute(root_in), ec);
  // The book folder itself (a link to it pointed elsewhere is another book) and what it holds.
  inputs::note_file(fs::absolute(root_in));
  inputs::note_folder(root);
  if (!fs::is_directory(root)) {
    diags.error({root_in, 0, 0}, "book folder does not exist");
    return std::nullopt;
  }
  // What the layout implies is the base; book.toml overrides only what it names.
  fs::path file = root / "book.toml";
  inputs::note_file(file);
  if (!fs::exists(file)) {
    auto cfg = infer_config(root, diags);
    if (!cfg) return std::nullopt;
    finish_config(*cfg);
    warn_missing_metadata(*cfg, diags);
    return cfg;
  }
  const Config base = detect_layout(root);

  const std::optional<toml::table> parsed = read_book_toml(file, diags);
  if (!parsed) return std::nullopt;
  const toml::table& doc = *parsed;

  Reader r(file, diags);
  Config cfg = base;
  cfg.root = root;
  cfg.config_file = file;
  cfg.calculations = root / "calculations";
  // [publish] is read by `init --workflow` only (publish/publish_config.hpp).
  r.known_keys(doc, {"book", "policy", "edition", "filter", "site", "pdf", "publish"}, "book.toml");

  const std::string inferred_title_at = cfg.origins.count("title") ? cfg.origins.at("title") : "";
  if (const auto* book = doc["book"].as_table()) {
    r.known_keys(*book,
                 {"title", "authors", "repository", "site-url", "favicon", "rights", "source-edition",
                  "calculations", "bibliography", "citation-style", "references"},
                 "[book]");
    for (const auto& [key, value] : *book) cfg.origins[std::string(key.str())] = origin_in(file, &value);
    cfg.calculations = (root / r.str(*book, "calculations", "calculations")).lexically_normal();
    if (auto c = PathGuard(root).confine(cfg.calculations); !c.ok())
      diags.error(toml_place(file, book->get("calculations")), "calculations folder " + c.error);
    cfg.title = r.str(*book, "title", cfg.title);
    // The book's title replaces what was read for it (the README's heading), not an edition's own.
    if (book->contains("title"))
      for (auto& e : cfg.editions)
        if (auto at = cfg.origins.find("edition." + e.id + ".title");
            at == cfg.origins.end() || at->second == inferred_title_at)
          e.title = cfg.title;
    if (book->contains("authors")) cfg.authors = r.str_list(*book, "authors");
    cfg.repository = r.str(*book, "repository", cfg.repository);
    cfg.site_url = r.str(*book, "site-url");
    if (const auto scheme = text::url_scheme(cfg.site_url);
        !cfg.site_url.empty() && scheme != "https" && scheme != "http")
      diags.error(
          toml_place(file, book->get("site-url")),
          "`site-url` must be an absolute http(s) address, such as \"https://owner.github.io/name/\"");
    if (!cfg.site_url.empty() && cfg.site_url.back() != '/') cfg.site_url += '/';
    if (auto icon = r.str(*book, "favicon"); !icon.empty()) {
      auto c = PathGuard(root).confine(root / icon);
      if (!c.ok())
        diags.error(toml_place(file, book->get("favicon")), "favicon " + c.error);
      else if (!fs::is_regular_file(c.path))
        diags.error(toml_place(file, book->get("favicon")), "favicon `" + icon + "` does not exist");
      else
        cfg.favicon = c.path;
    }
    cfg.rights = r.str(*book, "rights");
    cfg.source_edition = r.str(*book, "source-edition", cfg.source_edition);
    read_citation_config(*book, cfg, diags);
  } else if (base.editions.empty()) {
    diags.error({file, 1, 1}, "missing [book] table");
  }

  const auto* editions = doc["edition"].as_array();
  if ((!editions || editions->empty()) && base.editions.empty()) {
    diags.error({file, 1, 1},
                "no [[edition]] defined, and the folder does not have a known book layout "
                "(manuscripts/NN-*.md, book-en/chapterNN.md, ...) to take the editions from; see "
                "docs/configuration.md");
    return std::nullopt;
  }
  if (editions) read_editions(r, *editions, base, cfg);
  // The layout's lenient policies suit its editions; a book whose book.toml declares every edition whole
  // has been set up for bookbuild's checks, and starts from the strict defaults.
  if (std::none_of(cfg.editions.begin(), cfg.editions.end(), [](const Edition& e) { return e.detected; })) {
    const Config strict;
    cfg.plain_references = strict.plain_references;
    cfg.edition_structure = strict.edition_structure;
  }
  if (const auto* policy = doc["policy"].as_table()) read_policies(r, *policy, cfg);
  warn_orphan_chapters(cfg, diags);
  // Unless book.toml names it: the layout's source edition, while book.toml has not replaced it.
  const bool source_given = doc["book"]["source-edition"].node() != nullptr;
  if (!cfg.editions.empty() &&
      (cfg.source_edition.empty() || (!source_given && !cfg.edition(cfg.source_edition))))
    cfg.source_edition = cfg.editions.front().id;
  if (cfg.editions.empty()) return std::nullopt;
  if (!cfg.edition(cfg.source_edition)) {
    diags.error(toml_place(file, doc["book"]["source-edition"].node()),
                "source edition `" + cfg.source_edition + "` is not one of the [[edition]] ids");
    return std::nullopt;
  }
  // An edition's title book.toml gives is the book's title before one read from the README.
  if (const auto own = cfg.origins.find("edition." + cfg.source_edition + ".title");
      !doc["book"]["title"].node() && own != cfg.origins.end() && own->second.starts_with("book.toml:")) {
    cfg.title = cfg.source().title;
    cfg.origins["title"] = own->second;
  }
  finish_config(cfg);
  warn_missing_metadata(cfg, diags);
  read_filter_entries(doc, cfg, diags);
  read_print_config(doc, cfg, diags);
  if (const auto* site = doc["site"].as_table()) read_site_config(*site, file, cfg, diags);
  return cfg;
}

}  // namespace bb::book
