// What every book-reading subcommand does first: load the configuration and parse the manuscripts,
// collecting every problem; and last: print them all and choose the exit code.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "calc/engine.hpp"
#include "cli/commands.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"
#include "inputs/record.hpp"
#include "server/live.hpp"

namespace bb::cli {

// Makes the commands that write outputs keep work in the output folder's cache for the next run:
// code highlighting in <out>/.cache/highlight.bin (highlight::use_cache; they call
// highlight::save_cache() after a successful build) and parsed chapters in <out>/.cache/parsed
// (book::use_parse_store).
void use_output_caches(const Context& ctx);

// What `site --serve` keeps from one build to the next (server/live.hpp).
using SessionCache = server::SessionCache;

// A command that writes outputs runs inside one: when the record of the last run of the same command
// line into the same --out still holds (inputs/record.hpp), `replayed()` is true, what that run
// printed has been printed again, and the command does nothing else. Otherwise the command builds,
// its output is captured, and `finish` writes a record of a successful run (or drops the old one).
class RecordedRun {
 public:
  explicit RecordedRun(const Context& ctx);
  [[nodiscard]] bool replayed() const { return replayed_; }
  // `outputs`: the files and folders the command wrote (each is part of the record).
  void finish(int exit_code, const std::vector<std::filesystem::path>& outputs);

 private:
  std::filesystem::path out_;
  bool wanted_ = false;
  bool replayed_ = false;
  std::optional<inputs::Capture> capture_;
};

struct BookSession {
  // The output this session resolves the book for, as the book's Lua filters see it (FORMAT).
  explicit BookSession(std::string output_format = "html") : format(std::move(output_format)) {}
  std::string format;
  Diagnostics diags;
  std::optional<book::Book> book;
  filters::Resolution resolution;
  // The engine the book's computed numbers came from, for the checks of the results to reuse (null
  // without a calculations folder, and when `load` was given a cache).
  std::shared_ptr<calc::Engine> engine;

  // Loads the book at ctx.global.book_dir (only the given editions when non-empty) and resolves it:
  // numbering, references, links and computed numbers (see docs/pipeline.md).
  bool load(const Context& ctx, const std::vector<std::string>& editions = {}, SessionCache* cache = nullptr);

  // The same, one edition at a time: `book` is first the outline of the selected editions
  // (book::book_outline); then each edition in turn is parsed and resolved into `resolution`,
  // `each(index)` is called while its trees are in `book`, and they are dropped before the next is
  // read. The checks across editions run last. So a large book is never held whole: what a writer
  // keeps of an edition is up to it. False when the configuration could not be loaded.
  // `edition_clean` tells `each` whether its edition can be written: no error in the configuration,
  // the calc data or this edition so far (an error in another edition does not hold it back).
  bool load_each(const Context& ctx, const std::vector<std::string>& editions,
                 const std::function<void(std::size_t)>& each);
  bool edition_clean = false;

  // Prints diagnostics (paths relative to the book) and returns the exit code: report_diagnostics.
  int report(const Context& ctx) const;
};

// Prints `diags` as the command line asks (-q: one line each, with its kind), then the summary, and
// returns the exit code: 1 with errors, or with more warnings than --max-warnings (said in a line).
int report_diagnostics(const Diagnostics& diags, const Context& ctx, const std::filesystem::path& base);

}  // namespace bb::cli
