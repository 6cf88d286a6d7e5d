// The Markdown front end: one manuscript file → the document tree, via cmark-gfm.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::markdown {

// Words that introduce hand-numbered captions and callouts, per kind.
struct Vocabulary {
  std::vector<std::string> figure, table, example, experiment, think;
  // The list of a kind ("figure", "table", "example", "experiment", "think"); nullptr for another.
  std::vector<std::string>* of(std::string_view kind);
  // Adds a word unless the kind has it; a label pattern ("Figure {}") adds its text before `{}`.
  void add(std::string_view kind, std::string_view word);
};

// The lead words of every language bookbuild knows (languages/*.toml, `[lead-words]`): a caption may
// be written in any of them, whatever the edition's language. book.toml adds to them.
const Vocabulary& default_vocabulary();

struct Options {
  Vocabulary words = default_vocabulary();
  // The book has a bibliography: `[@key]` is a citation the filters resolve (filters/citations.hpp),
  // not syntax to warn about.
  bool citations = false;
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
