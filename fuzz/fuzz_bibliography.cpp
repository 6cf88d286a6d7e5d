// Fuzz target: the bibliography readers and the citation syntax (builder/bib). Any bytes read as
// BibTeX or CSL-JSON give entries and diagnostics placed inside the text, never a crash; any text
// gives citations inside it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bib/bibliography.hpp"
#include "bib/citation.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  for (bool json : {false, true}) {
    bb::Diagnostics diags;
    auto entries =
        json ? bb::bib::parse_csl_json(text, "f.json", diags) : bb::bib::parse_bibtex(text, "f.bib", diags);
    for (const auto& d : diags.all())
      bb::fuzz::check(d.loc.line >= 1 && static_cast<std::size_t>(d.loc.line) <= lines && d.loc.col >= 1);
    for (const auto& e : entries) bb::fuzz::check(!e.key.empty());
  }
  for (const auto& found : bb::bib::find_citations(text)) {
    bb::fuzz::check(found.offset + found.length <= text.size() && !found.citation.items.empty());
    for (const auto& item : found.citation.items) bb::fuzz::check(!item.key.empty());
  }
  return 0;
}
