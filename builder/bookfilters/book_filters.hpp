// The book's own Lua filters (`[[filter]]` in book.toml, files in its `filters/` folder) run over one
// chapter's tree: Pandoc's filter shape in a sandbox (docs/filters.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "bookfilters/sandbox.hpp"
#include "diag/diagnostics.hpp"

namespace bb::bookfilters {

// A filter as read once per run: its entry in book.toml and its source text.
struct Program {
  book::FilterEntry entry;
  std::string code;
};

// Reads every filter book.toml lists (each file is an input of the run record). Unreadable files are
// errors at their [[filter]] table.
std::vector<Program> load_programs(const book::Config& config, Diagnostics& diags);

// What a filter may read besides the chapter: the book's labels and calc results.
struct LabelInfo {
  std::string kind, chapter, identifier, number, title;
};
struct CalcValue {
  bool integer = true;
  long long i = 0;
  double d = 0;
};
struct Lookups {
  // By label ("fig:x"), within the edition; empty before references are resolved.
  std::function<std::optional<LabelInfo>(const std::string&)> label;
  // A calc expression's value; an error message (a string) when it cannot be evaluated.
  std::function<std::optional<CalcValue>(const std::string&, std::string& error)> calc;
};

// Where the filters run: which output, which edition, which chapter, which stage.
struct Place {
  std::string format;  // "html" (site), "epub", "latex", "check"
  const book::Edition* edition = nullptr;
  const book::Chapter* chapter = nullptr;
  std::filesystem::path book_root;
  book::FilterEntry::Stage stage = book::FilterEntry::Stage::Resolved;
};

// Runs, in book.toml order, each program whose stage, outputs and editions include `place`, over
// `chapter`'s tree, each in fresh globals (in a sandbox from a pool kept for the process). An error (a Lua
// error, the instruction budget, the memory ceiling, a malformed result) is reported at the manuscript
// element the filter was given, naming the filter's file and line; the filter's remaining work on that
// chapter is abandoned.
void run_filters(const std::vector<Program>& programs, book::Chapter& chapter, const Place& place,
                 const Lookups& lookups, Diagnostics& diags, const Limits& limits = {});

}  // namespace bb::bookfilters
