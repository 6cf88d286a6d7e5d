// The hand-written reference forms of an edition ("图 4-5", "第 4.8.3 节", "Figure 4-5", "рис. 4-5",
// "第 6 章") and the scanner that finds them in text: where each reference is and what kind and number
// it names. Resolving them is crossref.hpp's.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "filters/targets.hpp"
#include "lang/language.hpp"

namespace bb::filters {

// One hand-written reference found in a piece of text: the byte range [begin, end) to turn into a
// link and the target it names. Exposed for tests.
struct PlainRef {
  std::size_t begin = 0, end = 0;
  TargetKind kind = TargetKind::Figure;
  std::string number;
};
std::vector<PlainRef> find_plain_refs(std::string_view text, std::string_view lang);

// The hand-written reference forms of one edition: its language's words (languages/*.toml) plus the
// lead words its book.toml adds (`[edition.lead-words]`), built once and used for every text node.
class ReferenceScanner {
 public:
  explicit ReferenceScanner(std::string_view lang,
                            const std::map<std::string, std::vector<std::string>>& extra_words = {});
  [[nodiscard]] std::vector<PlainRef> scan(std::string_view text) const;

 private:
  struct Form {
    TargetKind kind;
    std::string prefix, suffix;
    bool stem = false;
  };
  const lang::Language* language_;
  std::vector<Form> forms_;  // longest prefix first
  // Most text cannot start a reference word, and in Chinese nearly every character shares its first
  // byte with one: the forms are filed by the first byte of their prefix (in forms_' order), and a
  // position is looked at only when its first two bytes begin some prefix.
  std::array<std::vector<std::uint16_t>, 256> by_first_byte_;
  std::bitset<65536> first_two_bytes_;
  // Every reference's number starts with an ASCII digit, and no reference word holds one: a reference
  // ends its word a few bytes before the next digit (spaces, a parenthesis, a case ending between), so
  // only those bytes are looked at. A word with a digit in it (book.toml's lead words may have one)
  // turns this off.
  std::size_t longest_prefix_ = 0;
  bool prefix_has_digit_ = false;
  bool any_stem_ = false;
};

}  // namespace bb::filters
