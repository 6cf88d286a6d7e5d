// The words that open hand-numbered captions and callouts: every language's lead words
// (languages/*.toml), plus what a book adds (see frontend.hpp).
#include "lang/language.hpp"
#include "markdown/frontend.hpp"
#include "text/unicode.hpp"

namespace bb::markdown {

std::vector<std::string>* Vocabulary::of(std::string_view kind) {
  if (kind == "figure") return &figure;
  if (kind == "table") return &table;
  if (kind == "example") return &example;
  if (kind == "experiment") return &experiment;
  if (kind == "think") return &think;
  return nullptr;
}

void Vocabulary::add(std::string_view kind, std::string_view word) {
  auto* words = of(kind);
  std::string w(text::trim(word.substr(0, word.find("{}"))));
  if (!words || w.empty()) return;
  for (const auto& x : *words)
    if (x == w) return;
  words->push_back(std::move(w));
}

const Vocabulary& default_vocabulary() {
  // Captions may be written in any language the tool knows, whatever the edition's language.
  static const Vocabulary words = [] {
    Vocabulary v;
    for (const auto& l : lang::all_languages())
      for (const auto& [kind, list] : l.lead_words)
        for (const auto& w : list) v.add(kind, w);
    return v;
  }();
  return words;
}

}  // namespace bb::markdown
