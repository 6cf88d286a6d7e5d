// Loading languages/*.toml (toml++) once per process, and matching BCP 47 tags to them.
#include "lang/language.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "assets/assets.hpp"
#include "diag/diagnostics.hpp"
#include "text/unicode.hpp"

namespace bb::lang {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

// How many leading subtags of `tag` equal `pattern`'s (all of them, or 0).
std::size_t match_length(const std::string& tag, const std::string& pattern) {
  if (tag == pattern) return pattern.size() + 1;
  if (tag.starts_with(pattern) && tag[pattern.size()] == '-') return pattern.size();
  return 0;
}

std::vector<std::string> strings(const toml::node* n, const fs::path& file, std::string_view key) {
  std::vector<std::string> out;
  if (!n) return out;
  const auto* arr = n->as_array();
  if (!arr) throw FatalError(file.string() + ": `" + std::string(key) + "` must be a list of strings");
  for (const auto& v : *arr) {
    auto s = v.value<std::string>();
    if (!s) throw FatalError(file.string() + ": `" + std::string(key) + "` must be a list of strings");
    out.push_back(*s);
  }
  return out;
}

void read_words(const toml::table& t, const std::string& prefix, Language& l, const fs::path& file) {
  for (const auto& [k, v] : t) {
    std::string key = prefix + std::string(k.str());
    if (const auto* sub = v.as_table())
      read_words(*sub, key + ".", l, file);
    else if (auto s = v.value<std::string>())
      l.words[key] = *s;
  }
}

Language load(const fs::path& file) {
  toml::table t;
  try {
    t = toml::parse(assets::read_data_file(file), file.string());
  } catch (const toml::parse_error& e) {
    throw FatalError(file.string() + ":" + std::to_string(e.source().begin.line) + ": " +
                     std::string(e.description()));
  }
  Language l;
  l.family = file.stem().string();
  l.name = t["name"].value_or(l.family);
  l.tags = strings(t.get("tags"), file, "tags");
  for (auto& tag : l.tags) tag = lower(tag);
  l.spaced = t["spaced"].value_or(true);
  bool stems = t["stems"].value_or(false);
  if (const auto* endings = t.get("stem-endings")) l.stem_endings = strings(endings, file, "stem-endings");
  if (const auto* labels = t["labels"].as_table())
    for (const auto& [k, v] : *labels) l.labels[std::string(k.str())] = v.value_or(std::string());
  l.decimal = t["numbers"]["decimal"].value_or(std::string("."));
  l.group = t["numbers"]["group"].value_or(std::string(","));
  l.group_min_digits = t["numbers"]["group-min-digits"].value_or(4);
  if (const auto* words = t["numbers"]["words"].as_table()) {
    for (const auto& [k, v] : *words) {
      const auto n = v.value<long long>();
      if (!n)
        throw FatalError(file.string() + ": [numbers] words: `" + std::string(k.str()) +
                         "` must be an integer");
      l.number_words[text::lower(k.str())] = *n;
    }
  }
  if (const auto* lead = t["lead-words"].as_table())
    for (const auto& [k, v] : *lead) l.lead_words[std::string(k.str())] = strings(&v, file, k.str());
  if (const auto* refs = t["references"].as_table()) {
    for (const auto& [k, v] : *refs) {
      for (const auto& form : strings(&v, file, k.str())) {
        ReferenceForm f{std::string(k.str()), form, "", stems};
        if (auto gap = form.find(" … "); gap != std::string::npos) {
          f.prefix = form.substr(0, gap);
          f.suffix = form.substr(gap + std::string(" … ").size());
        }
        l.references.push_back(std::move(f));
      }
    }
    // "Figures" before "Figure", "例题" before "例": the longest word that matches is the one meant.
    std::stable_sort(
        l.references.begin(), l.references.end(),
        [](const ReferenceForm& a, const ReferenceForm& b) { return a.prefix.size() > b.prefix.size(); });
  }
  for (const char* section : {"site", "epub"})
    if (const auto* words = t[section].as_table()) read_words(*words, std::string(section) + ".", l, file);
  l.latex_setup = t["latex"]["setup"].value_or(std::string());
  return l;
}

struct Registry {
  std::vector<Language> languages;
  const Language* english = nullptr;
};

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(assets::data_dir() / "languages", ec))
      if (e.path().extension() == ".toml") files.push_back(fs::path("languages") / e.path().filename());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) reg.languages.push_back(load(f));
    for (const auto& l : reg.languages)
      if (l.family == "en") reg.english = &l;
    if (!reg.english) throw FatalError("bookbuild's data folder has no languages/en.toml");
    return reg;
  }();
  return r;
}

}  // namespace

const std::string& Language::word(std::string_view key) const {
  if (auto it = words.find(std::string(key)); it != words.end()) return it->second;
  const Language& en = *registry().english;
  if (auto it = en.words.find(std::string(key)); it != en.words.end()) return it->second;
  throw FatalError("no language file defines the interface word `" + std::string(key) + "`");
}

const std::string& Language::label(std::string_view kind) const {
  if (auto it = labels.find(std::string(kind)); it != labels.end()) return it->second;
  const Language& en = *registry().english;
  if (auto it = en.labels.find(std::string(kind)); it != en.labels.end()) return it->second;
  throw FatalError("no language file defines the label `" + std::string(kind) + "`");
}

const Language& language(std::string_view bcp47) {
  const Registry& r = registry();
  std::string tag = lower(bcp47);
  const Language* best = r.english;
  std::size_t best_len = 0;
  for (const auto& l : r.languages)
    for (const auto& pattern : l.tags)
      if (std::size_t n = match_length(tag, pattern); n > best_len) {
        best_len = n;
        best = &l;
      }
  return *best;
}

const std::vector<Language>& all_languages() {
  return registry().languages;
}

}  // namespace bb::lang
