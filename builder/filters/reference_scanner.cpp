// Hand-written references in prose: recognised with a small vocabulary per language (prefix words,
// Russian stems with any case ending, Chinese 第…节/章 frames) followed by a number of the right
// shape; lists ("第 2、3 章", "Figures 4-9 and 4-10") give every number. What they name is resolved by
// crossref.cpp.
#include "filters/reference_scanner.hpp"

#include <cstring>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>

#include "lang/language.hpp"

namespace bb::filters {

namespace {

struct Form {
  TargetKind kind;
  std::string prefix;  // word before the number
  std::string suffix;  // word after the number (Chinese 第…章), or empty
  bool stem = false;  // Russian: the prefix may be followed by a case ending (рисунке, разделе)
};

std::optional<TargetKind> kind_named(std::string_view name) {
  for (TargetKind k : {TargetKind::Chapter, TargetKind::Section, TargetKind::Figure, TargetKind::Table,
                       TargetKind::Equation, TargetKind::Example, TargetKind::Experiment})
    if (name == target_kind_name(k)) return k;
  return std::nullopt;
}

// The reference words of the edition's language (languages/*.toml) plus the edition's own lead words
// (book.toml), longest first: "例題" before "例", "Figures" before "Figure".
std::vector<Form> forms_for(std::string_view tag,
                            const std::map<std::string, std::vector<std::string>>& extra) {
  const lang::Language& l = lang::language(tag);
  std::vector<Form> out;
  for (const auto& f : l.references)
    if (auto kind = kind_named(f.kind)) out.push_back({*kind, f.prefix, f.suffix, f.stem});
  for (const auto& [name, words] : extra)
    if (auto kind = kind_named(name))
      for (const auto& w : words)
        if (!w.empty()) out.push_back({*kind, w, "", false});
  std::stable_sort(out.begin(), out.end(),
                   [](const Form& a, const Form& b) { return a.prefix.size() > b.prefix.size(); });
  return out;
}

bool ascii_alpha(unsigned char c) {
  return std::isalpha(c) != 0;
}

// Cyrillic letters are two-byte sequences starting with 0xD0 or 0xD1.
std::size_t cyrillic_letter(std::string_view s, std::size_t i) {
  if (i + 1 < s.size() &&
      (static_cast<unsigned char>(s[i]) == 0xD0 || static_cast<unsigned char>(s[i]) == 0xD1))
    return 2;
  return 0;
}

std::size_t skip_spaces(std::string_view s, std::size_t i) {
  for (;;) {
    if (i < s.size() && s[i] == ' ')
      ++i;
    else if (s.compare(i, 2, "\u00A0") == 0)
      i += 2;
    else if (s.compare(i, 3, "\u202F") == 0 || s.compare(i, 3, "\u2009") == 0)
      i += 3;
    else
      return i;
  }
}

bool digit_at(std::string_view s, std::size_t p) {
  return p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]));
}

// The letter of a lettered item number ("2-A"): one capital Latin letter, not the start of a word.
bool item_letter_at(std::string_view s, std::size_t p) {
  return p < s.size() && s[p] >= 'A' && s[p] <= 'Z' &&
         (p + 1 >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[p + 1])) || s[p + 1] == '_'));
}

// The separator inside an item number, as readers write it: "9-1", "9.1", "9–1" (en dash).
std::size_t number_separator(std::string_view s, std::size_t p) {
  if (p < s.size() && (s[p] == '-' || s[p] == '.')) return 1;
  if (s.compare(p, 3, "\u2013") == 0) return 3;
  return 0;
}

// A quantity, not a label: "35.3%", "65％".
bool percent_at(std::string_view s, std::size_t p) {
  return (p < s.size() && s[p] == '%') || s.compare(p, 3, "\uFF05") == 0;
}

// Parses a number of the shape a kind uses at i; returns its end or npos. `out` is the canonical
// number the numbering filter registers: sections keep their dots, other items use "-" ("9.1" → "9-1").
std::size_t parse_number(std::string_view s, std::size_t i, TargetKind kind, std::string& out) {
  auto digits = [&](std::size_t& p) {
    std::size_t b = p;
    while (digit_at(s, p)) ++p;
    return p > b;
  };
  std::size_t p = i;
  if (!digits(p)) return std::string_view::npos;
  std::string number(s.substr(i, p - i));
  if (kind == TargetKind::Chapter) {
    // "Chapter 4-5 of a standard", "第 1.5 章" are not chapter numbers; "第 4–7 章" is a range (a list).
    if (p + 1 < s.size() && (s[p] == '.' || s[p] == '-') && digit_at(s, p + 1)) return std::string_view::npos;
  } else if (kind == TargetKind::Section) {
    bool dotted = false;
    while (s.size() > p && s[p] == '.' && digit_at(s, p + 1)) {
      ++p;
      std::size_t b = p;
      digits(p);
      number += "." + std::string(s.substr(b, p - b));
      dotted = true;
    }
    if (!dotted) return std::string_view::npos;
  } else if (std::size_t sep = number_separator(s, p); sep && item_letter_at(s, p + sep)) {
    number += "-" + std::string(1, s[p + sep]);  // "表 2-A": a lettered item of chapter 2
    p += sep + 1;
  } else {
    if (!sep || !digit_at(s, p + sep)) return std::string_view::npos;
    p += sep;
    std::size_t b = p;
    digits(p);
    number += "-" + std::string(s.substr(b, p - b));
    // "4-1.5" or "4-1-2" is something else (a range, a version)
    if (s.size() > p + 1 && (s[p] == '-' || s[p] == '.') && digit_at(s, p + 1)) return std::string_view::npos;
  }
  if (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_'))
    return std::string_view::npos;
  if (percent_at(s, p)) return std::string_view::npos;
  out = std::move(number);
  return p;
}

// A number in parentheses, ASCII or full-width ("式（6-1）", "Eq. (6-1)"), or bare. Returns the end
// (after the closing parenthesis) or npos; `bracketed` says which form was found.
std::size_t parse_reference_number(std::string_view s, std::size_t i, TargetKind kind, std::string& out,
                                   bool& bracketed) {
  bracketed = false;
  for (auto [open, close] : {std::pair<std::string_view, std::string_view>{"(", ")"}, {"\uFF08", "\uFF09"}}) {
    if (s.compare(i, open.size(), open) != 0) continue;
    std::size_t end = parse_number(s, skip_spaces(s, i + open.size()), kind, out);
    if (end == std::string_view::npos) return end;
    end = skip_spaces(s, end);
    if (s.compare(end, close.size(), close) != 0) return std::string_view::npos;
    bracketed = true;
    return end + close.size();
  }
  return parse_number(s, i, kind, out);
}

// Separators between the numbers of a list.
std::size_t list_separator(std::string_view s, std::size_t i) {
  static const char* seps[] = {"、",   "，", ", and ", " and ", ", ", ",", " 与 ", "与",  " 和 ",  "和",
                               " 及 ", "及", " 或 ",   "或",    "–",  "—", " or ", " и ", " или ", "-"};
  for (const char* sep : seps) {
    std::string_view v(sep);
    if (s.compare(i, v.size(), v) == 0) return i + v.size();
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<PlainRef> find_plain_refs(std::string_view s, std::string_view lang) {
  return ReferenceScanner(lang).scan(s);
}

ReferenceScanner::ReferenceScanner(std::string_view lang,
                                   const std::map<std::string, std::vector<std::string>>& extra_words)
    : language_(&lang::language(lang)) {
  for (const auto& f : forms_for(lang, extra_words)) {
    if (f.prefix.empty() || forms_.size() > UINT16_MAX) continue;
    const auto first = static_cast<unsigned char>(f.prefix[0]);
    by_first_byte_[first].push_back(static_cast<std::uint16_t>(forms_.size()));
    if (f.prefix.size() == 1)
      for (unsigned second = 0; second < 256; ++second) first_two_bytes_.set(first << 8 | second);
    else
      first_two_bytes_.set(first << 8 | static_cast<unsigned char>(f.prefix[1]));
    forms_.push_back({f.kind, f.prefix, f.suffix, f.stem});
    longest_prefix_ = std::max(longest_prefix_, f.prefix.size());
    prefix_has_digit_ |= f.prefix.find_first_of("0123456789") != std::string::npos;
    any_stem_ |= f.stem;
  }
}

namespace {

// The first ASCII digit at or after i, or npos: eight bytes at a time, a word being skipped when none
// of its bytes lies between '0' and '9' ("Determine if a word has a byte between m and n", Sean
// Eron Anderson, Bit Twiddling Hacks; exact for bytes below 0x80 and never true for the others).
std::size_t next_digit(std::string_view s, std::size_t i) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t below = ones * (127 + ('9' + 1)), above = ones * (127 - ('0' - 1));
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const std::uint64_t low7 = w & (ones * 127);
    if (((below - low7) & ~w & (low7 + above)) & (ones * 128)) break;
  }
  for (; i < s.size(); ++i)
    if (s[i] >= '0' && s[i] <= '9') return i;
  return std::string_view::npos;
}

// Where a reference whose number starts at the digit at `d` can begin at the earliest: back over what
// may stand between a reference word and its number (spaces as skip_spaces takes them, a parenthesis,
// and for stemmed words case endings and a period), then the longest word. Generous: every byte
// stepped over only widens the window.
std::size_t earliest_start(std::string_view s, std::size_t d, std::size_t longest, bool stems) {
  std::size_t b = d;
  auto byte = [&](std::size_t back) { return static_cast<unsigned char>(s[b - back]); };
  for (;;) {
    if (b >= 1 && (byte(1) == ' ' || byte(1) == '(' || (stems && byte(1) == '.')))
      b -= 1;
    else if (b >= 2 && byte(2) == 0xC2 && byte(1) == 0xA0)  // U+00A0
      b -= 2;
    else if (b >= 3 && ((byte(3) == 0xE2 && byte(2) == 0x80 && (byte(1) == 0xAF || byte(1) == 0x89)) ||
                        (byte(3) == 0xEF && byte(2) == 0xBC && byte(1) == 0x88)))  // U+202F, U+2009, U+FF08
      b -= 3;
    else if (stems && b >= 2 && cyrillic_letter(s, b - 2) == 2)
      b -= 2;
    else
      break;
  }
  return b > longest ? b - longest : 0;
}

}  // namespace

std::vector<PlainRef> ReferenceScanner::scan(std::string_view s) const {
  std::vector<PlainRef> out;
  const lang::Language& language = *language_;
  bool latin = language.spaced;
  std::size_t i = 0;
  // The bytes before the next digit that could start a reference to it: [i, limit).
  std::size_t limit = s.size();
  if (!prefix_has_digit_) {
    const std::size_t d = next_digit(s, 0);
    if (d == std::string_view::npos) return out;
    i = earliest_start(s, d, longest_prefix_, any_stem_);
    limit = d;
  }
  while (i < s.size()) {
    if (i >= limit) {  // past the digit: on to the window of the next number
      std::size_t after = limit;
      while (after < s.size() && s[after] >= '0' && s[after] <= '9') ++after;  // the rest of it
      const std::size_t d = next_digit(s, std::max(i, after));
      if (d == std::string_view::npos) break;
      i = std::max(i, earliest_start(s, d, longest_prefix_, any_stem_));
      limit = d;
      continue;
    }
    bool matched = false;
    const auto first = static_cast<unsigned char>(s[i]);
    const unsigned second = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (!first_two_bytes_.test(first << 8 | second)) {
      ++i;  // a prefix starts with an ASCII or a lead byte, never inside a character
      continue;
    }
    for (std::uint16_t form : by_first_byte_[first]) {
      const Form& f = forms_[form];
      if (s.compare(i, f.prefix.size(), f.prefix) != 0) continue;
      // Word boundary before Latin/Cyrillic words.
      if (latin && i > 0) {
        unsigned char prev = static_cast<unsigned char>(s[i - 1]);
        if (ascii_alpha(prev) || (i >= 2 && cyrillic_letter(s, i - 2) == 2)) continue;
      }
      std::size_t p = i + f.prefix.size();
      if (f.stem) {
        std::size_t ending = p;
        while (std::size_t n = cyrillic_letter(s, p)) p += n;
        const auto& endings = language.stem_endings;
        if (!endings.empty() &&
            std::find(endings.begin(), endings.end(), s.substr(ending, p - ending)) == endings.end())
          continue;  // "рисовать" is a verb, not a case form of "рисунок"
        if (p < s.size() && s[p] == '.') ++p;
      } else if (latin && p < s.size() && ascii_alpha(static_cast<unsigned char>(s[p]))) {
        continue;  // "Figured" is not "Figure"
      }
      std::size_t q = skip_spaces(s, p);
      if (q == p && latin) continue;                             // Latin words need a space before the number
      std::vector<std::pair<std::size_t, std::string>> numbers;  // (start, number)
      std::string number;
      bool bracketed = false;
      std::size_t end = parse_reference_number(s, q, f.kind, number, bracketed);
      if (end == std::string_view::npos) continue;
      // "式" alone is part of many words (形式, 模式): an equation named by a one-letter word needs
      // its number in parentheses, as equation numbers are printed.
      if (f.kind == TargetKind::Equation && !bracketed && !latin && f.prefix.size() <= 3) continue;
      numbers.emplace_back(q, number);
      std::vector<std::size_t> ends{end};
      for (;;) {
        std::size_t sep = list_separator(s, end);
        if (sep == std::string_view::npos) break;
        std::size_t n0 = skip_spaces(s, sep);
        // A list repeats the number shape; "图 4-9 与图 4-10" restarts with a prefix instead.
        std::string more;
        bool more_bracketed = false;
        std::size_t e2 = parse_reference_number(s, n0, f.kind, more, more_bracketed);
        if (e2 == std::string_view::npos) break;
        numbers.emplace_back(n0, more);
        ends.push_back(e2);
        end = e2;
      }
      std::size_t phrase_end = end;
      if (!f.suffix.empty()) {
        std::size_t after = skip_spaces(s, end);
        if (s.compare(after, f.suffix.size(), f.suffix) != 0) continue;
        phrase_end = after + f.suffix.size();
      }
      for (std::size_t k = 0; k < numbers.size(); ++k) {
        PlainRef r;
        r.kind = f.kind;
        r.number = numbers[k].second;
        r.begin = k == 0 ? i : numbers[k].first;
        r.end = ends[k];
        if (numbers.size() == 1) r.end = phrase_end;  // "第 4.8.3 节" links as a whole
        out.push_back(r);
      }
      i = phrase_end;
      matched = true;
      break;
    }
    if (!matched) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      i += c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    }
  }
  return out;
}

}  // namespace bb::filters
