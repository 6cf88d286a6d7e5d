// Languages: every word bookbuild writes (site, EPUB, LaTeX, labels) or recognises (caption lead
// words, hand-written references), and how numbers are written, from one data file per language in
// languages/*.toml. Adding a language is adding a file (docs/languages.md).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace bb::lang {

// A hand-written reference form: the word before the number and, for frames such as 第 4 章, the
// word after it ("第 … 章" in the data file).
struct ReferenceForm {
  std::string kind;  // figure, table, equation, section, chapter, example, experiment
  std::string prefix;
  std::string suffix;
  bool stem = false;  // the prefix may be followed by more letters (Russian case endings)
};

struct Language {
  std::string family;  // the data file's name: "zh-hans", "en", ...
  std::string name;    // the language's own name
  std::vector<std::string> tags;
  bool spaced = true;  // words are separated by spaces (a reference word needs a word boundary)

  std::map<std::string, std::string> labels;  // kind → "图 {}"
  std::string decimal = ".", group = ",";
  int group_min_digits = 4;
  // Numbers written as words ("four" → 4, "четырьмя" → 4, "八" → 8), in lower case, every form a
  // reader meets: a bound literal may be one, and the numbers audit reads "four cards" as a count.
  std::map<std::string, long long> number_words;
  std::map<std::string, std::vector<std::string>> lead_words;  // kind → words opening a caption
  std::vector<ReferenceForm> references;                       // longest prefix first
  // With stems: the endings a stem may take ("рис" + "унке"); empty = any letters. A closed list keeps
  // a verb ("рисовать") from being read as a noun's case form.
  std::vector<std::string> stem_endings;
  std::map<std::string, std::string> words;  // "site.search" → "搜索"
  std::string latex_setup;

  // An interface word ("site.search", "epub.cover"); a key the file lacks falls back to English, and a
  // key no file has is a FatalError (a writer asking for a word nobody wrote is a bug).
  [[nodiscard]] const std::string& word(std::string_view key) const;
  [[nodiscard]] const std::string& label(std::string_view kind) const;
};

// The language for a BCP 47 tag ("zh-Hant-TW", "zh-TW", "ru-RU"): the file whose tag matches the most
// leading subtags, case-insensitively; English when none matches.
const Language& language(std::string_view bcp47);

// Every language file, in name order (for words recognised whatever the edition's language).
const std::vector<Language>& all_languages();

// Keeps the parsed language files in `file` (<out>/.cache/languages.bin) between runs: toml++ takes
// ~3 M instructions to read the four files, a fifth of a warm LaTeX build's own work. The file is
// used while this bookbuild executable and every languages/*.toml (name, size, time, inode) are the
// ones that wrote it, and ends with a checksum; anything else is a miss, and the files are read.
// Call before the first language is looked up; later calls change nothing.
void use_cache(const std::filesystem::path& file);

}  // namespace bb::lang
