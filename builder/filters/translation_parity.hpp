// What a translated chapter must share with its source chapter, checked once the book is resolved:
// the same labels (so every reference has a counterpart) and the same calc keys bound. A difference
// is one error, in the file that has the mistake: the source chapter when it changed after its
// translation (a later modification time, by more than a minute), since the translation was right
// before that edit; otherwise the translation, which follows the source. `site`, `site --serve` and `check`
// report the same, and an edition checked alone
// (`--edition E`) has no counterpart loaded and is not compared.
#pragma once

#include <filesystem>
#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::filters {

struct ParityCount {
  int labels = 0;     // labels on one side only
  int calc_keys = 0;  // calc keys bound on one side only
};

// Compares every translated chapter with its source chapter (only those with key `only_key`, if given).
ParityCount check_translation_parity(const book::Book& book, const Resolution& r, Diagnostics& diags,
                                     const std::string& only_key = {});

// Whether `source` changed after `translation` (by more than a minute: files written together are a
// tie), so that a difference between them is reported in the source. False when a time cannot be read.
bool source_changed_last(const std::filesystem::path& source, const std::filesystem::path& translation);

}  // namespace bb::filters
