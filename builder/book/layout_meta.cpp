// Titles, subtitles and authors of a book in the real layout (see layout_meta.hpp). Each edition
// looks at its own files first: its home page's first heading, its preface's first heading when it
// names more than "Preface"; the source edition then the README.
#include "book/layout_meta.hpp"

#include <fstream>
#include <regex>

#include "book/paths.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

struct Head {
  std::string title;
  std::string lead;  // the first paragraph's bold lead, `**…**`
  std::string author;
  std::string title_at, author_at;  // "README.md:1": where each was read, for --verbose
};

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  return s.substr(b);
}

// A heading's text as a title: no closing `#`s, no `{#id}`, no HTML tags, and no book-title brackets
// around the whole (`《…》` names a book inside a sentence; as the title itself they are not shown).
std::string title_text(std::string t) {
  if (auto brace = t.find(" {"); brace != std::string::npos && !t.empty() && t.back() == '}') t.erase(brace);
  t = trim(t);
  while (!t.empty() && t.back() == '#') t.pop_back();
  if (t.find('<') != std::string::npos) t = std::regex_replace(t, std::regex("<[^>]*>"), "");
  t = trim(t);
  static const std::string open = "《", close = "》";
  if (t.starts_with(open) && t.ends_with(close) && t.find(close) == t.size() - close.size())
    t = t.substr(open.size(), t.size() - open.size() - close.size());
  return trim(t);
}

// Whether `line` holds `word` (lower case) with its ASCII letters in any case: what a regex with
// std::regex::icase needs to find before it can match (the C locale folds only ASCII).
bool contains_nocase(std::string_view line, std::string_view word) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t i = 0; i + word.size() <= line.size(); ++i) {
    std::size_t k = 0;
    while (k < word.size() && lower(line[i + k]) == word[k]) ++k;
    if (k == word.size()) return true;
  }
  return false;
}

// `text` after the blanks `\s` matches in the C locale.
std::string_view skip_blanks(std::string_view text) {
  while (!text.empty() && std::string_view(" \t\n\v\f\r").find(text.front()) != std::string_view::npos)
    text.remove_prefix(1);
  return text;
}

bool starts_nocase(std::string_view text, std::string_view word) {
  return contains_nocase(text.substr(0, word.size()), word);
}

// Whether author_line (anchored: its word comes first, after blanks and an optional `**`) can match.
bool may_name_author(std::string_view line) {
  std::string_view rest = skip_blanks(line);
  if (rest.starts_with("**")) rest.remove_prefix(2);
  return rest.starts_with("作者") || starts_nocase(rest, "author") || starts_nocase(rest, "by");
}

// Whether author_note can match: a `著` followed by blanks and a closing parenthesis.
bool may_note_author(std::string_view line) {
  const std::string_view mark = "著";
  for (auto at = line.find(mark); at != std::string_view::npos; at = line.find(mark, at + 1)) {
    const std::string_view rest = skip_blanks(line.substr(at + mark.size()));
    if (rest.starts_with("）") || rest.starts_with(")")) return true;
  }
  return false;
}

// The patterns of read_head, compiled on first use: most books need none of them, and compiling
// them cost ~3 M instructions on every run of every job (issue 49).
const std::regex& author_line() {
  static const std::regex re(
      R"(^\s*(?:\*\*)?(?:作者|作者們|作者们|Authors?|By)(?:\*\*)?\s*(?::|：|\*\*(?::|：)\*\*)\s*(.+?)\s*$)",
      std::regex::icase);
  return re;
}
const std::regex& author_note() {
  static const std::regex re(R"([（(]([^（()）]{1,40}?)\s*著[）)])");
  return re;
}
const std::regex& html_h1() {
  static const std::regex re(R"(<h1[^>]*>(.*?)</h1>)", std::regex::icase);
  return re;
}

// The first level-1 heading (`# …`, a setext `…` over `===`, or an HTML `<h1>`), the bold lead of the
// paragraph after it, and an author line ("作者：…", "Author: …", "（李博杰 著）").
Head read_head(const fs::path& file, const fs::path& root) {
  Head h;
  inputs::note_file(file);
  std::ifstream in(file);
  std::string line, previous;
  bool fenced = false;
  int number = 0;
  const std::string name = file.lexically_relative(root).generic_string();
  auto at = [&](int n) { return name + ":" + std::to_string(n); };
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // a UTF-8 byte order mark
    if (trim(line).starts_with("```") || trim(line).starts_with("~~~")) fenced = !fenced;
    if (fenced) {
      previous.clear();
      continue;
    }
    std::smatch m;
    if (h.title.empty()) {
      const std::string t = trim(line);
      std::string found;
      if (t.starts_with("# "))
        found = title_text(t.substr(2));
      else if (contains_nocase(line, "<h1") && std::regex_search(line, m, html_h1()))
        found = title_text(m[1].str());
      else if (!t.empty() && t.find_first_not_of('=') == std::string::npos && !trim(previous).empty())
        found = title_text(trim(previous));
      if (!found.empty()) {
        h.title = found;
        h.title_at = at(t.starts_with("=") ? number - 1 : number);
        previous.clear();
        continue;
      }
    }
    previous = line;
    // Each pattern is tried only on a line where its literal words stand where it needs them.
    // (Running them on every line of a preface was a tenth of a warm site build's instructions.)
    const bool may_name = h.author.empty() && may_name_author(line);
    const bool may_note = h.author.empty() && may_note_author(line);
    if ((may_name && std::regex_search(line, m, author_line())) ||
        (may_note && std::regex_search(line, m, author_note()))) {
      h.author = trim(m[1].str());
      h.author_at = at(number);
    }
    if (!h.title.empty() && h.lead.empty() && line.starts_with("**")) {
      auto close = line.find("**", 2);
      if (close != std::string::npos) h.lead = trim(line.substr(2, close - 2));
    }
  }
  return h;
}

bool is_preface_word(const std::string& heading) {
  for (const auto& l : lang::all_languages())
    if (heading == l.label("preface")) return true;
  for (const char* w : {"Introduction", "Foreword", "序言", "序", "引言", "Введение"})
    if (heading == w) return true;
  return false;
}

Head edition_head(const fs::path& root, const Edition& e, bool is_source) {
  Head out;
  auto take = [&](const Head& h, bool title_ok) {
    if (out.title.empty() && title_ok && !h.title.empty()) {
      out.title = h.title;
      out.title_at = h.title_at;
    }
    if (out.lead.empty()) out.lead = h.lead;
    if (out.author.empty()) {
      out.author = h.author;
      out.author_at = h.author_at;
    }
  };
  if (fs::path home = markdown_home(root, e, is_source); !home.empty()) take(read_head(home, root), true);
  for (const auto& c : e.chapters)
    if (c.number == 0) {
      if (!PathGuard(root).confine(root / e.folder / c.file).ok()) continue;  // a link out of the book
      Head p = read_head(root / e.folder / c.file, root);
      p.lead.clear();  // a preface's first bold words are not the book's subtitle
      take(p, !is_preface_word(p.title));
    }
  if (is_source)
    for (const fs::path& readme : {root / "README.md", root / e.folder / "README.md"}) {
      PathGuard guard(root);
      if (const ConfinedPath c = guard.confine(readme); !c.ok() || !fs::is_regular_file(c.status)) continue;
      Head r = read_head(readme, root);
      r.lead.clear();
      take(r, true);
    }
  return out;
}

}  // namespace

fs::path markdown_home(const fs::path& root, const Edition& e, bool is_source) {
  // Confined like every input: a website/index.md that links outside the book is not read.
  PathGuard guard(root);
  auto regular_inside = [&](const fs::path& p) {
    const ConfinedPath c = guard.confine(p);
    return c.ok() && fs::is_regular_file(c.status);
  };
  const fs::path own = root / "website" / (e.id == "zh" ? std::string("index.md") : "index." + e.id + ".md");
  inputs::note_file(own);
  if (regular_inside(own)) return own;
  const fs::path shared = root / "website" / "index.md";
  if (is_source && regular_inside(shared)) return shared;
  return {};
}

void infer_metadata(const fs::path& root, Config& cfg) {
  std::string author, author_at;
  for (auto& e : cfg.editions) {
    const bool is_source = e.id == cfg.source_edition;
    Head h = edition_head(root, e, is_source);
    e.title = h.title;
    e.subtitle = h.lead;
    if (!h.title.empty()) cfg.origins["edition." + e.id + ".title"] = h.title_at;
    if (!h.author.empty() && (author.empty() || is_source)) {
      author = h.author;
      author_at = h.author_at;
    }
    if (is_source && !h.title.empty()) {
      cfg.title = h.title;
      cfg.origins["title"] = h.title_at;
    }
  }
  if (!author.empty()) {
    cfg.authors = {author};
    cfg.origins["authors"] = author_at;
  }
}

void warn_missing_metadata(const Config& cfg, Diagnostics& diags) {
  // The place of a warning is a file that exists: book.toml when there is one, else the book folder.
  const fs::path at = cfg.config_file.empty() ? cfg.root : cfg.config_file;
  if (cfg.origins.count("title") == 0) {
    const Edition& source = cfg.source();
    diags.warning({at, 0, 0},
                  "no title found (no README.md heading, no website/index.md, and the preface's heading is "
                  "only \"" +
                      source.labels.preface + "\"): the book is called `" + cfg.title +
                      "` (the name of the repository, else of its folder); set it with `[book] title = "
                      "\"…\"` in book.toml");
  }
  for (const auto& e : cfg.editions)
    if (e.detected && cfg.origins.count("edition." + e.id + ".title") == 0 && e.id != cfg.source_edition &&
        cfg.origins.count("title") != 0 && cfg.origins.at("title").find("book.toml") == std::string::npos)
      diags.warning({cfg.root / e.folder, 0, 0},
                    "edition `" + e.id + "` has no title of its own (no website/index." + e.id +
                        ".md heading, no preface heading naming the book): it shows the source edition's");
}

}  // namespace bb::book
