// The search tokeniser: the comparison form of text (NFC, then lowercase(NFKC) code point by code
// point) and its terms (words; bigrams and run-final unigrams of CJK letters), the rule that
// website/search.js shares (docs/search.md); and the stored form of a section's text. ICU is asked once
// per code point and process; the scanner below is inline so that the index builder's callbacks are.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "text/unicode.hpp"

namespace bb::search {

// The comparison form of a text: NFC, then every code point c replaced by lowercase(NFKC(c)).
// Folding code point by code point keeps a map back to the original text for highlighting.
std::u32string fold(std::string_view utf8);

// Letters, digits and marks (Unicode L, N, M) that are not CJK: the characters of words.
bool is_word_char(char32_t c);

enum class TokenKind { Word, Bigram, Unigram };
// "word", "bigram" or "unigram": the kinds as the tests and tools print them.
const char* token_kind_name(TokenKind k);

struct Token {
  std::string text;  // UTF-8 of the folded token
  TokenKind kind = TokenKind::Word;
  bool operator==(const Token&) const = default;
};

// The index terms of a text: every word; every overlapping pair of adjacent CJK characters; and the
// last character of each CJK run as a unigram (so that a one-character query finds every character
// as the first of a bigram or as a run's last character).
std::vector<Token> tokenize(std::string_view utf8);

// The stored form of a text (what the index keeps and shows): NFC with runs of white space collapsed
// to one space, control characters dropped, trimmed; ill-formed UTF-8 becomes U+FFFD.
std::string stored_form(std::string_view utf8);
void append_stored_form(std::string_view utf8, std::string& out);

namespace detail {

// What a folded code point is to the scanner: part of a word, a CJK letter (bigrams), or a separator.
enum class CharClass : std::uint8_t { Other, Word, Cjk };

inline CharClass class_of(char32_t c) {
  if (text::is_cjk_letter(c)) return CharClass::Cjk;
  return is_word_char(c) ? CharClass::Word : CharClass::Other;
}

// Code points that fold to themselves and are CJK letters without asking ICU: the bulk of Chinese,
// Japanese and Korean text (the unit test checks these ranges against ICU code point by code point).
inline bool cjk_folds_to_itself(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x3041 && c <= 0x3096) ||
         (c >= 0x30A1 && c <= 0x30FA) || (c >= 0xAC00 && c <= 0xD7A3);
}

// Everything the index asks about one code point: its fold, the class of the fold, and whether the
// code point itself is white space or a control character (the stored form drops those).
struct CharInfo {
  // A fold of one code point (nearly all) is here; a longer one (`ﬁ` → `fi`) in `longer`.
  char32_t fold = 0;
  CharClass cls = CharClass::Other;
  bool white = false;
  bool control = false;
  std::u32string longer;  // empty unless the fold has more than one code point
};

CharInfo char_info_icu(char32_t c);

// ICU's answers, asked once per code point and process: a book uses a few thousand distinct
// characters, and every later occurrence is an array read. A BMP entry packs CharInfo into 32 bits
// (0: not asked yet); the rest (astral code points, folds longer than one code point) is in a map
// under a lock. Racing threads store the same value.
class CharTable {
 public:
  static constexpr std::uint32_t kFold = 0x1FFFFF, kClassShift = 21, kLong = 1u << 23, kWhite = 1u << 24,
                                 kControl = 1u << 25, kKnown = 1u << 31;

  // The packed entry of a BMP code point (at least 0x80).
  std::uint32_t bmp(char32_t c) {
    std::uint32_t v = bmp_[c].load(std::memory_order_relaxed);
    if (v != 0) return v;
    const CharInfo& info = slow(c);
    v = kKnown | (info.white ? kWhite : 0) | (info.control ? kControl : 0);
    v |= info.longer.empty()
             ? static_cast<std::uint32_t>(info.fold) | static_cast<std::uint32_t>(info.cls) << kClassShift
             : kLong;
    bmp_[c].store(v, std::memory_order_relaxed);
    return v;
  }

  // The full answer, from the map (computed on first use). References stay valid: map nodes are
  // never moved or erased.
  const CharInfo& slow(char32_t c) {
    std::lock_guard lock(mutex_);
    auto it = slow_.find(c);
    if (it == slow_.end()) it = slow_.emplace(c, char_info_icu(c)).first;
    return it->second;
  }

 private:
  // Zero-initialised static storage: a page of it is only touched when a code point in it is used.
  static constinit std::array<std::atomic<std::uint32_t>, 0x10000> bmp_;
  std::mutex mutex_;
  std::unordered_map<char32_t, CharInfo> slow_;
};

CharTable& char_table();

// Calls on(folded code point, its class) for each code point of the fold of NFC text.
template <typename F>
void for_each_folded(std::string_view nfc_utf8, F&& on) {
  CharTable& table = char_table();
  const char* p = nfc_utf8.data();
  for (std::size_t i = 0, n = nfc_utf8.size(); i < n;) {
    const auto byte = static_cast<unsigned char>(p[i]);
    if (byte < 0x80) {
      ++i;
      if (byte >= 'A' && byte <= 'Z') {
        on(static_cast<char32_t>(byte + 32), CharClass::Word);
      } else {
        const bool word = (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9');
        on(static_cast<char32_t>(byte), word ? CharClass::Word : CharClass::Other);
      }
      continue;
    }
    const char32_t c = text::next_code_point(nfc_utf8, i);
    if (cjk_folds_to_itself(c)) {
      on(c, CharClass::Cjk);
      continue;
    }
    if (c < 0x10000) {
      const std::uint32_t v = table.bmp(c);
      if ((v & CharTable::kLong) == 0) {
        on(static_cast<char32_t>(v & CharTable::kFold),
           static_cast<CharClass>((v >> CharTable::kClassShift) & 3u));
        continue;
      }
    }
    const CharInfo& info = table.slow(c);
    if (info.longer.empty())
      on(info.fold, info.cls);
    else
      for (char32_t f : info.longer) on(f, class_of(f));
  }
}

// Scans the fold of NFC text: word(w) for each word (its folded code points), cjk(first, second)
// for each bigram of a CJK run and cjk(last, 0) for the run's last character. Words are runs of
// word characters, CJK runs of CJK letters; anything else separates.
template <typename Word, typename Cjk>
void scan(std::string_view nfc_utf8, std::u32string& buffer, Word&& word, Cjk&& cjk) {
  buffer.clear();
  char32_t previous = 0;  // the last CJK letter of the run being scanned; 0 outside a run
  auto end_word = [&] {
    if (buffer.empty()) return;
    word(std::u32string_view(buffer));
    buffer.clear();
  };
  auto end_run = [&] {
    if (previous == 0) return;
    cjk(previous, char32_t{0});
    previous = 0;
  };
  for_each_folded(nfc_utf8, [&](char32_t c, CharClass cls) {
    switch (cls) {
      case CharClass::Cjk:
        end_word();
        if (previous != 0) cjk(previous, c);
        previous = c;
        break;
      case CharClass::Word:
        end_run();
        buffer += c;
        break;
      case CharClass::Other:
        end_word();
        end_run();
        break;
    }
  });
  end_word();
  end_run();
}

}  // namespace detail

}  // namespace bb::search
