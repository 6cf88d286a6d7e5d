// The Markdown front end: one manuscript file → the document tree, via cmark-gfm.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// Words that introduce hand-numbered captions and callouts, in every language the book uses. The
// defaults cover zh-Hans, zh-Hant, en and ru; book.toml labels add to them.
struct Vocabulary {
  std::vector<std::string> figure{"图", "圖", "Figure", "Fig.", "Рис.", "Рисунок"};
  std::vector<std::string> table{"表", "Table", "Табл.", "Таблица"};
  std::vector<std::string> example{"例", "Example", "Пример"};
  std::vector<std::string> experiment{"实验", "實驗", "Experiment", "Эксперимент"};
  std::vector<std::string> think{"思考", "Think", "Exercise", "Подумайте", "Вопрос"};
};

struct Options {
  Vocabulary words;
};

// Parses Markdown text. `path` is used for diagnostics and node locations only.
doc::Node parse(std::string_view source, const std::filesystem::path& path, Diagnostics& diags,
                const Options& options = {});

// Reads and parses a file; an unreadable file is an error at the path.
doc::Node parse_file(const std::filesystem::path& path, Diagnostics& diags, const Options& options = {});

// If `text` starts with one of `words` followed by a hand number such as "4-1" or "4.2", returns the
// number and sets `rest` to the text after the number and its separator ("：", ":", U+3000, ".", " ").
std::string split_hand_number(std::string_view text, const std::vector<std::string>& words,
                              std::string_view& rest);

}  // namespace bb::markdown
