// Computed numbers: `{{calc scenario.field | format}}` placeholders are evaluated and formatted in
// the edition's locale; bound literals `[133.59 TFLOPs]{calc=scenario.field}` render as typed and are
// checked against the recomputed value to the precision shown.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/number_format.hpp"
#include "text/interned.hpp"

namespace bb::filters {

// Evaluates a calc expression (`scenario.field.path` or an inline call); throws std::exception
// with a user-facing message on failure.
using Evaluator = std::function<Number(const std::string& expr)>;

// One placeholder or bound literal, as found and checked (for `check numbers` and its report).
struct Binding {
  // The edition id and chapter key, shared by every binding that has them (not a copy in each).
  text::Interned edition;
  text::Interned chapter;
  SourceLoc loc;
  std::string expr;
  bool literal = false;    // a bound literal (else a placeholder)
  std::string shown;       // what the reader sees
  std::string recomputed;  // the value recomputed now, in the literal's unit
  std::string tolerance;   // for literals: ± half a unit in the last shown place
  bool ok = true;
};

// What the placeholders of one edition read as, by their text: split, format parsed and (once an
// evaluation succeeded) the value shown, done once for all its chapters — the 100x book has 254,400
// placeholders of 577 distinct texts. Chapters resolve in parallel: the memo is shared under
// a lock, and an entry never changes once kept. A value is taken from it only when the evaluator gave
// the same number again; errors are not kept as values, each occurrence reports its own.
class PlaceholderMemo {
 public:
  struct Read {
    bool split = false;  // the text is an expression and an optional format
    std::string expr;
    std::optional<Format> format;  // when split: nullopt if the format is not one
    std::string error;             // parse_format's message, when it is not
    std::optional<Number> value;   // the first value evaluated, and what it is shown as
    std::string shown;
  };
  // The entry for `text`, or nullptr.
  [[nodiscard]] const Read* find(std::string_view text) const;
  // Keeps `read` for `text` unless an entry is there already (another chapter's, equal); returns the one
  // kept.
  const Read& keep(std::string_view text, Read read);

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  mutable std::mutex mutex_;
  // A node-based map: a Read stays where it was kept when the map grows.
  std::unordered_map<std::string, Read, Hash, std::equal_to<>> reads_;
};

// Resolves every placeholder and bound literal in a chapter. Without an evaluator (a book with no
// calculations/), each one is an error saying so. With `memo`, placeholders are read once per edition.
void resolve_calc_numbers(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                          std::vector<Binding>& bindings, Diagnostics& diags,
                          PlaceholderMemo* memo = nullptr);

// The expression a resolved computed number was evaluated from: a placeholder's (from its text) or a
// bound literal's (its attr `expr`, set when it was evaluated); empty for anything else.
std::string computed_expression(const doc::Node& n);

// Splits `calc expr | format` (the `calc` word is optional) into expression and format.
bool split_placeholder(std::string_view inner, std::string& expr, std::string& format);

}  // namespace bb::filters
