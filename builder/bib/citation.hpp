// Pandoc's citation syntax, read from the text an author typed: `[@smith2020]`,
// `[see @smith2020, p. 33; @lee2019]`, `[-@smith2020]` and the in-text `@smith2020`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::bib {

struct CiteItem {
  std::string key;
  std::string prefix;            // before the key: "see"
  std::string suffix;            // after the key, as typed: ", p. 33", ", and elsewhere"
  bool suppress_author = false;  // `-@key`
};

struct Citation {
  std::vector<CiteItem> items;
  bool in_text = false;  // `@key` in the sentence: "Smith (2020)"
};

// The prefixes of cross-references (`@fig:x`): never citation keys.
bool is_crossref_key(std::string_view key);

// The length of the key at the start of `s` (after its `@`): letters, digits and `_`, then also
// `:.#$%&-+?<>~/` inside (not at the end), as Pandoc reads keys. 0 when there is none.
std::size_t key_length(std::string_view s);

// What is between `[` and `]`, read as a citation: every `;`-separated item has one `@key`.
std::optional<Citation> parse_bracketed(std::string_view inside);

// A citation found in a run of text: its bytes [offset, offset + length).
struct FoundCitation {
  std::size_t offset = 0, length = 0;
  Citation citation;
};

// Every citation in `text`, in order: `[…@key…]` (no `[` inside, at most 1,000 bytes long) and `@key`
// at the start of a word (not after a letter, digit, `.`, `-` or `@`, so an e-mail address is none).
std::vector<FoundCitation> find_citations(std::string_view text);

}  // namespace bb::bib
