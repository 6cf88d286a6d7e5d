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
};

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

// The first `# ` heading, the bold lead of the paragraph after it, and an author line
// ("作者：…", "Author: …", "（李博杰 著）").
Head read_head(const fs::path& file) {
  Head h;
  inputs::note_file(file);
  std::ifstream in(file);
  std::string line;
  bool fenced = false;
  static const std::regex author_line(
      R"(^\s*(?:\*\*)?(?:作者|作者們|Authors?|By)(?:\*\*)?\s*(?::|：|\*\*(?::|：)\*\*)\s*(.+?)\s*$)",
      std::regex::icase);
  static const std::regex author_note(R"([（(]([^（()）]{1,40}?)\s*著[）)])");
  while (std::getline(in, line)) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced) continue;
    if (h.title.empty() && line.starts_with("# ")) {
      std::string t = line.substr(2);
      if (auto brace = t.find(" {"); brace != std::string::npos && !t.empty() && t.back() == '}')
        t.erase(brace);
      h.title = trim(t);
      continue;
    }
    std::smatch m;
    if (h.author.empty() &&
        (std::regex_search(line, m, author_line) || std::regex_search(line, m, author_note)))
      h.author = trim(m[1].str());
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
    if (out.title.empty() && title_ok && !h.title.empty()) out.title = h.title;
    if (out.lead.empty()) out.lead = h.lead;
    if (out.author.empty()) out.author = h.author;
  };
  if (fs::path home = markdown_home(root, e, is_source); !home.empty()) take(read_head(home), true);
  for (const auto& c : e.chapters)
    if (c.number == 0) {
      Head p = read_head(root / e.folder / c.file);
      p.lead.clear();  // a preface's first bold words are not the book's subtitle
      take(p, !is_preface_word(p.title));
    }
  if (is_source)
    for (const fs::path& readme : {root / "README.md", root / e.folder / "README.md"}) {
      Head r = read_head(readme);
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

void infer_metadata(const fs::path& root, Config& cfg, Diagnostics& diags) {
  std::string author;
  for (auto& e : cfg.editions) {
    const bool is_source = e.id == cfg.source_edition;
    Head h = edition_head(root, e, is_source);
    e.title = h.title;
    e.subtitle = h.lead;
    if (author.empty() || is_source) author = h.author.empty() ? author : h.author;
  }
  Edition& source = cfg.editions.front();
  if (source.title.empty()) {
    source.title = root.filename().string();
    diags.warning(
        {root, 0, 0},
        "no title found (no README.md heading, no website/index.md, and the preface's heading is only \"" +
            source.labels.preface + "\"): using the folder name `" + source.title +
            "`; set it with `[book] title = \"…\"` in book.toml");
  }
  cfg.title = source.title;
  for (auto& e : cfg.editions)
    if (e.title.empty()) {
      e.title = source.title;
      diags.warning({root / e.folder, 0, 0},
                    "edition `" + e.id + "` has no title of its own (no website/index." + e.id +
                        ".md heading, no preface heading naming the book): it shows the source edition's");
    }
  if (!author.empty()) cfg.authors = {author};
}

}  // namespace bb::book
