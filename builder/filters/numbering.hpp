// Numbering: chapters, sections (to level 3), figures, tables, labelled equations, examples and
// experiments, per chapter; hand numbers (the real book's `## 4.1 …`, `*图 4-1　…*`) are taken
// over and checked to be unique and in order. Sets stable ids and registers every target.
#pragma once

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/targets.hpp"

namespace bb::filters {

// Fills a label pattern: ("图 {}", "4-1") → "图 4-1".
std::string fill_label(const std::string& pattern, const std::string& number);

// Numbers one chapter of an edition and registers its targets.
void number_chapter(const book::Edition& edition, book::Chapter& chapter, TargetTable& table,
                    Diagnostics& diags);

// If `text` starts with a hand-written section number ("4.2.3 " or "4.2 "), returns it and the
// length to strip (number and following spaces).
std::string leading_section_number(std::string_view text, std::size_t& strip);

}  // namespace bb::filters
