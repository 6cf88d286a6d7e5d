// Numbering: chapters, sections (to level 3), figures, tables, labelled equations, examples and
// experiments, per chapter; hand numbers (the real book's `## 4.1 …`, `*图 4-1　…*`) are taken
// over and checked to be unique and in order. Sets stable ids and registers every target.
#pragma once

#include "book/book.hpp"
#include "book/config.hpp"
#include "diag/diagnostics.hpp"
#include "filters/targets.hpp"

namespace bb::filters {

// Fills a label pattern: ("图 {}", "4-1") → "图 4-1".
std::string fill_label(const std::string& pattern, const std::string& number);

// How the style rules of numbering are reported (book.toml `[policy]`); none of them blocks outputs
// by default, since every output still gets consistent ids and numbers.
struct NumberingPolicy {
  book::Policy punctuation = book::Policy::Warning;  // "9.1" where the book writes "9-1"
  book::Policy order = book::Policy::Warning;        // a hand number out of order or of another chapter
  book::Policy sections = book::Policy::Warning;     // a hand section number out of order
};

// Numbers one chapter of an edition and registers its targets.
void number_chapter(const book::Edition& edition, book::Chapter& chapter, TargetTable& table,
                    Diagnostics& diags, const NumberingPolicy& policy = {});

// An item number as the book registers it: "9.1", "9–1" (en dash) and "9-1" are all "9-1".
std::string canonical_item_number(std::string_view written);

// If `text` starts with a hand-written section number ("4.2.3 " or "4.2 "), returns it and the
// length to strip (number and following spaces).
std::string leading_section_number(std::string_view text, std::size_t& strip);

}  // namespace bb::filters
