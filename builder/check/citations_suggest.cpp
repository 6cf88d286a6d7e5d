// Proposing bound literals for the numbers the citations check binds (see citations_suggest.hpp).
#include "check/citations_suggest.hpp"

#include "check/citations_settle.hpp"

namespace bb::check {

std::string result_attribute(const std::string& file, const std::string& pointer) {
  const std::string value = file + "#" + pointer;
  if (value.find_first_of(" \t\n{}\"\\") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::vector<CitationSuggestion> suggest_citation_bindings(const book::Book& book) {
  ResultFiles files(book.config.root, book.config.calculations);
  CitationsReport report;
  Diagnostics quiet;  // mismatches are `check numbers`'s to report; only the bindings are wanted here
  for (const auto& eb : book.editions)
    for (const auto& ch : eb.chapters)
      check_citations(ch, eb.edition, files, report, quiet, book.config.root);
  settle_citations(report, files, NumbersLock{}, SettleOptions{}, quiet);
  std::vector<CitationSuggestion> out;
  for (auto& c : report.checked) {
    // A number whose unit is written after the last of its list ("1、2、4 ms") has no literal of its own.
    // A derived number states no one field: a `result=` literal cannot hold it (numbers.lock does).
    if (c.bound || c.number.shared || !c.derive.empty()) continue;
    const std::string file =
        (book.config.root / c.result).lexically_relative(book.config.calculations).generic_string();
    ManuscriptEdit edit{c.loc, c.text, "[" + c.text + "]{result=" + result_attribute(file, c.field) + "}"};
    out.push_back({std::move(c), std::move(edit)});
  }
  return out;
}

}  // namespace bb::check
