// What a reader of one revision of the book sees of its numbers, per edition and chapter, with their
// places: computed placeholders, bound literals and the values they are checked against, typed numbers,
// fields of the results cited, chart values, the numbers of sections, figures, tables and equations,
// and the words of cross-references; plus the calculation data files. Two snapshots are compared by
// diff/compare.hpp; nothing here knows about git.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/book.hpp"
#include "check/numbers_check.hpp"
#include "filters/pipeline.hpp"

namespace bb::diff {

enum class Kind : std::uint8_t {
  Computed,     // `{{calc …}}`: the value shown
  Bound,        // `[16 GB]{calc=…}`: the text typed
  BoundSource,  // the value a bound literal is checked against, recomputed
  Cited,        // a typed number locked or bound to a field of a cited result: the field's value
  Typed,        // a number with a unit typed in prose, bound to nothing
  Chart,        // a cell of a chart's data
  Numbered,     // the number of a section, figure, table or equation
  CrossRef,     // the words of an `@label` reference
};
std::string_view kind_name(Kind k);

// A number as read: with a unit bookbuild knows (check/typed_numbers.hpp), `value` in its dimension's
// base unit and `dim` the dimension; otherwise ("8 卡", "8 cards") `dim` is kUnknownDim and `value` the
// number as written. `raw` is always the number as written, `raw_half_step` half a unit of its last digit.
struct Reading {
  static constexpr int kUnknownDim = -1;
  double value = 0;
  double half_step = 0;
  int dim = kUnknownDim;
  double raw = 0;
  double raw_half_step = 0;
};

struct Item {
  Kind kind = Kind::Computed;
  std::string identity;  // what makes it the same item in both revisions: expression, label, title, …
  std::string value;     // what changes: the text shown, the field's value, the number given
  std::string what;      // how the report names it: the expression, label, chart cell, result field
  int line = 0, col = 0;
  std::optional<Reading> reading;  // `value` read as a number, when it is one
};

struct ChapterItems {
  std::string edition;
  std::string key;          // stable across editions: "ch04"
  std::string file;         // the manuscript, from the book root, '/'-separated
  std::string title;        // plain text of its first heading
  std::size_t index = 0;    // its place in the edition
  std::vector<Item> items;  // by kind, then in book order
};

// A chart as drawn for one edition: its SVG, hashed.
struct Drawing {
  std::string edition, file, spec;
  int line = 0;
  std::uint64_t hash = 0;
};

struct Snapshot {
  std::string source_edition;
  std::vector<std::string> editions;  // book.toml order
  std::vector<ChapterItems> chapters;
  std::vector<Drawing> drawings;
  std::map<std::string, std::string> calculations;  // files under calculations/ (from the book root) → bytes
  std::size_t errors = 0;                           // errors loading this revision (reported, not fatal)
};

// Takes what the resolved `book` shows. `numbers`: the numbers check of it (typed and cited numbers).
Snapshot take_snapshot(const book::Book& book, const filters::Resolution& resolution,
                       const check::NumbersReport& numbers);

// Reads the number a text shows ("16.0 GiB", "2,5 ГБ", "1 234", "8 卡"), in an edition's locale; nullopt
// when it shows no digit.
std::optional<Reading> read_number(std::string_view text, const book::NumberLocale& locale);

}  // namespace bb::diff
