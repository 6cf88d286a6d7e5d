// The resolver's side of the book's Lua filters: places and lookups for builder/bookfilters/.
#include "filters/book_filters.hpp"

namespace bb::filters {

void run_book_filters(const std::vector<bookfilters::Program>& programs, book::Chapter& chapter,
                      const book::EditionBook& eb, const book::Config& config, const std::string& format,
                      book::FilterEntry::Stage stage, const TargetTable& targets, const Evaluator* evaluate,
                      Diagnostics& diags) {
  if (programs.empty()) return;
  using Stage = book::FilterEntry::Stage;
  bookfilters::Place place{format, &eb.edition, &chapter, config.root, stage};
  bookfilters::Lookups lookups;
  const std::string& edition = eb.edition.id;
  if (stage == Stage::Resolved)
    lookups.label = [&targets, &edition](const std::string& label) -> std::optional<bookfilters::LabelInfo> {
      const Target* t = targets.by_label(edition, label);
      if (!t) return std::nullopt;
      return bookfilters::LabelInfo{target_kind_name(t->kind), t->chapter, t->id, t->number, t->title};
    };
  if (evaluate)
    lookups.calc = [evaluate](const std::string& expr,
                              std::string&) -> std::optional<bookfilters::CalcValue> {
      const Number n = (*evaluate)(expr);  // throws with the reason, which the runner hands to Lua
      return bookfilters::CalcValue{n.is_integer, n.integer, n.real};
    };
  bookfilters::run_filters(programs, chapter, place, lookups, diags);
}

}  // namespace bb::filters
