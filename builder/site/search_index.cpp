// The site's search index: tokeniser (shared rule with website/search.js), sections of a chapter,
// and the files of one edition's index (docs.json, postings shards, text chunks; docs/search.md).
#include "site/search_index.hpp"

#include <unicode/bytestream.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "output/staging.hpp"
#include "text/escape.hpp"
#include "text/unicode.hpp"

namespace bb::site {

namespace fs = std::filesystem;

namespace {

// Calls f(code point) for each code point of UTF-8 text (an ill-formed sequence gives U+FFFD, as
// ICU's conversions do).
template <typename F>
void for_each_code_point(std::string_view utf8, F&& f) {
  for (std::size_t i = 0; i < utf8.size();) {
    const auto byte = static_cast<unsigned char>(utf8[i]);
    if (byte < 0x80) {
      f(static_cast<char32_t>(byte));
      ++i;
    } else {
      f(text::next_code_point(utf8, i));
    }
  }
}

const icu::Normalizer2& normalizer(bool compat) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n =
      compat ? icu::Normalizer2::getNFKCInstance(status) : icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status) || n == nullptr) throw std::runtime_error("ICU normalizer unavailable");
  return *n;
}

// NFC of UTF-8 text, without a round trip through UTF-16 when it already is (nearly always).
std::string nfc(std::string_view utf8) {
  const icu::Normalizer2& n = normalizer(false);
  UErrorCode status = U_ZERO_ERROR;
  icu::StringPiece piece(utf8.data(), static_cast<int32_t>(utf8.size()));
  if (n.isNormalizedUTF8(piece, status) && U_SUCCESS(status)) return std::string(utf8);
  status = U_ZERO_ERROR;
  std::string out;
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(utf8.size()));
  n.normalizeUTF8(0, piece, sink, nullptr, status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU NFC normalization failed");
  return out;
}

// lowercase(NFKC(c)) for one code point, straight from ICU.
std::u32string fold_char_icu(char32_t c) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString s(static_cast<UChar32>(c));
  icu::UnicodeString k = normalizer(true).normalize(s, status);
  if (U_FAILURE(status)) k = s;
  // The root locale's full lowercase mapping is JavaScript's String.prototype.toLowerCase.
  k.toLower(icu::Locale::getRoot());
  std::u32string folded;
  for (int32_t i = 0; i < k.length();) {
    UChar32 cp = k.char32At(i);
    folded += static_cast<char32_t>(cp);
    i += U16_LENGTH(cp);
  }
  return folded;
}

// Code points that fold to themselves without asking ICU: the bulk of Chinese, Japanese and Korean
// text (the unit test checks these ranges against ICU code point by code point).
bool folds_to_itself(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x3041 && c <= 0x3096) ||
         (c >= 0x30A1 && c <= 0x30FA) || (c >= 0xAC00 && c <= 0xD7A3);
}

// The folds ICU has been asked for, in a table: a book uses a few thousand distinct characters, and
// every later occurrence is an array read. A BMP entry holds its single-code-point fold + 1 (0: not
// asked yet; kLong: the fold is longer, kept in `longer`). Racing threads store the same value.
class FoldTable {
 public:
  // Appends the fold of c to out.
  void append(char32_t c, std::u32string& out) {
    if (c < 0x80) {
      out += (c >= 'A' && c <= 'Z') ? c + 32 : c;
      return;
    }
    if (folds_to_itself(c)) {
      out += c;
      return;
    }
    if (c < kBmp) {
      std::uint32_t v = bmp_[c].load(std::memory_order_relaxed);
      if (v != 0 && v != kLong) {
        out += static_cast<char32_t>(v - 1);
        return;
      }
    }
    std::lock_guard lock(mutex_);
    auto it = longer_.find(c);
    if (it == longer_.end()) {
      it = longer_.emplace(c, fold_char_icu(c)).first;
      if (c < kBmp)
        bmp_[c].store(it->second.size() == 1 ? static_cast<std::uint32_t>(it->second[0]) + 1 : kLong,
                      std::memory_order_relaxed);
    }
    out += it->second;
  }

 private:
  static constexpr char32_t kBmp = 0x10000;
  static constexpr std::uint32_t kLong = 0xFFFFFFFF;
  std::array<std::atomic<std::uint32_t>, kBmp> bmp_{};
  std::mutex mutex_;
  std::unordered_map<char32_t, std::u32string> longer_;
};

FoldTable& fold_table() {
  static FoldTable table;
  return table;
}

// Appends the fold of NFC text, code point by code point.
void append_folded(std::string_view nfc_utf8, std::u32string& out) {
  FoldTable& table = fold_table();
  for_each_code_point(nfc_utf8, [&](char32_t c) { table.append(c, out); });
}

bool is_white_space(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0;
  return u_isUWhiteSpace(static_cast<UChar32>(c));
}

bool is_control(char32_t c) {
  if (c < 0x80) return c < 0x20 || c == 0x7F;
  return u_iscntrl(static_cast<UChar32>(c));
}

// The stored form of a text: NFC with runs of white space collapsed to one space, trimmed.
std::string stored_form(std::string_view utf8) {
  std::string normal = nfc(utf8);
  std::string out;
  out.reserve(normal.size());
  bool space = false;
  for_each_code_point(normal, [&](char32_t c) {
    if (is_white_space(c)) {
      space = !out.empty();
      return;
    }
    if (is_control(c)) return;
    if (space) out += ' ';
    space = false;
    text::append_utf8(out, c);
  });
  return out;
}

// --- Postings: "ABC…" varints over a 64-character alphabet, 5 value bits and a continuation bit
// per character, least significant group first. Each posting is (section delta << 2 | weight).
constexpr std::string_view kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void append_varint(std::string& out, std::uint32_t v) {
  do {
    std::uint32_t group = v & 31u;
    v >>= 5;
    out += kDigits[group | (v != 0 ? 32u : 0u)];
  } while (v != 0);
}

// Weight of a term in a section: 3 in the title; otherwise by frequency in the text 1, 2–3, 4+.
std::uint32_t weight_of(bool in_title, std::uint32_t count) {
  if (in_title) return 3;
  return count >= 4 ? 2 : count >= 2 ? 1 : 0;
}

// gzip (RFC 1952) of a file's content; zlib writes no time stamp, so equal input gives equal bytes.
std::string gzip(std::string_view data) {
  z_stream z{};
  // Level 6 (zlib's default): within about 1 % of level 9 on these files, at a fraction of the time.
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  return out;
}

std::size_t common_prefix(std::u32string_view a, std::u32string_view b) {
  std::size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// Plain text of blocks, joined by spaces so that no word or bigram spans two blocks.
void append_block_text(const doc::Node& n, std::string& out) {
  auto add = [&out](const std::string& s) {
    if (s.empty()) return;
    if (!out.empty()) out += ' ';
    out += s;
  };
  switch (n.kind) {
    case doc::Kind::Paragraph:
    case doc::Kind::Heading:
    case doc::Kind::TableCell: add(doc::plain_text(n.children)); return;
    case doc::Kind::CodeBlock:
    case doc::Kind::DisplayMath: add(n.text); return;
    case doc::Kind::Figure:
    case doc::Kind::Table: add(doc::plain_text(n.caption)); break;
    case doc::Kind::HtmlBlock:
    case doc::Kind::ThematicBreak: return;
    default: break;
  }
  for (const auto& c : n.children) append_block_text(c, out);
}

}  // namespace

bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
  if (text::is_cjk_letter(c)) return false;
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

const char* token_kind_name(TokenKind k) {
  switch (k) {
    case TokenKind::Word: return "word";
    case TokenKind::Bigram: return "bigram";
    case TokenKind::Unigram: return "unigram";
  }
  return "?";
}

std::u32string fold(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  append_folded(nfc(utf8), out);
  return out;
}

namespace {

// Calls word(w) for each word and cjk(run) for each run of CJK characters of a folded text.
template <typename Word, typename Run>
void scan(std::u32string_view f, Word&& word, Run&& run) {
  std::size_t i = 0;
  while (i < f.size()) {
    std::size_t j = i;
    if (text::is_cjk_letter(f[i])) {
      while (j < f.size() && text::is_cjk_letter(f[j])) ++j;
      run(f.substr(i, j - i));
    } else if (is_word_char(f[i])) {
      while (j < f.size() && is_word_char(f[j])) ++j;
      word(f.substr(i, j - i));
    } else {
      ++j;
    }
    i = j;
  }
}

}  // namespace

std::vector<Token> tokenize(std::string_view utf8) {
  std::vector<Token> out;
  scan(
      fold(utf8),
      [&](std::u32string_view w) {
        out.push_back({text::to_utf8(w), TokenKind::Word});
      },
      [&](std::u32string_view r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k)
          out.push_back({text::to_utf8(r.substr(k, 2)), TokenKind::Bigram});
        out.push_back({text::to_utf8(r.substr(r.size() - 1)), TokenKind::Unigram});
      });
  return out;
}

std::vector<SearchSection> search_sections(const doc::Node& chapter_root, const std::string& page,
                                           const std::string& chapter_title) {
  std::vector<SearchSection> out;
  out.push_back({page, "", chapter_title, chapter_title, ""});
  for (const auto& block : chapter_root.children) {
    if (block.kind == doc::Kind::Heading && block.level >= 2 && block.level <= 3) {
      // After the filters, a hand-written number is in `number` and no longer in the text.
      std::string title = doc::plain_text(block.children);
      if (!block.number.empty() && !title.starts_with(block.number)) title = block.number + " " + title;
      out.push_back({page, block.id, title, chapter_title, ""});
      continue;
    }
    if (block.kind == doc::Kind::Heading && block.level == 1 && out.size() == 1) continue;  // the title
    append_block_text(block, out.back().text);
  }
  return out;
}

SearchStats write_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               const fs::path& dir) {
  return write_search_index(sections, lang, dir, SearchIndexOptions{});
}

SearchStats write_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               const fs::path& dir, const SearchIndexOptions& options) {
  std::map<std::string, std::string> files;
  SearchStats stats = build_search_index(sections, lang, files, options);
  for (const auto& [name, bytes] : files) output::write_file(dir / name, bytes);
  return stats;
}

namespace {

// The terms of an edition, each interned once: a word by its folded text (kept in `chars`, a flat
// array), a CJK term by its code points packed in a number (first << 21 | second; a unigram has
// second = 0, which makes it sort before its bigrams). Per term, the per-section counters of the
// section being scanned; postings are collected in section order as (term, section << 2 | weight).
class TermCollector {
 public:
  struct Posting {
    std::uint32_t term;
    std::uint32_t value;  // section << 2 | weight
  };

  void start_section(std::uint32_t s) {
    section_ = s;
    touched_.clear();
  }

  void add_word(std::u32string_view w, bool title) { count(intern_word(w), title); }
  void add_cjk(std::uint64_t key, bool title) { count(intern_cjk(key), title); }

  // Appends the postings of the section just scanned.
  void end_section() {
    for (std::uint32_t t : touched_) {
      Term& term = terms_[t];
      postings_.push_back({t, section_ << 2 | weight_of(term.in_title, term.count)});
    }
  }

  [[nodiscard]] std::size_t size() const { return terms_.size(); }
  [[nodiscard]] bool is_word(std::uint32_t t) const { return terms_[t].is_word; }
  [[nodiscard]] std::u32string_view word(std::uint32_t t) const {
    return {chars_.data() + terms_[t].offset, terms_[t].length};
  }
  [[nodiscard]] std::uint64_t cjk_key(std::uint32_t t) const { return terms_[t].key; }
  [[nodiscard]] const std::vector<Posting>& postings() const { return postings_; }

 private:
  struct Term {
    std::uint64_t key = 0;      // CJK: the packed code points
    std::uint32_t offset = 0;   // word: where its characters are in chars_
    std::uint32_t length = 0;   //
    std::uint32_t section = 0;  // the section the counters below belong to (+1; 0: none yet)
    std::uint32_t count = 0;    // occurrences in the section's text
    bool in_title = false;
    bool is_word = false;
  };

  void count(std::uint32_t t, bool title) {
    Term& term = terms_[t];
    if (term.section != section_ + 1) {
      term.section = section_ + 1;
      term.count = 0;
      term.in_title = false;
      touched_.push_back(t);
    }
    if (title)
      term.in_title = true;
    else
      ++term.count;
  }

  static std::uint64_t hash_word(std::u32string_view w) {
    std::uint64_t h = 1469598103934665603ull;
    for (char32_t c : w) h = (h ^ c) * 1099511628211ull;
    return h;
  }
  static std::uint64_t hash_key(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k | 1;  // never equal to a word's hash slot marker below
  }

  // Open addressing over term ids + 1; the table is kept at most half full.
  template <typename Equal, typename Make>
  std::uint32_t find_or_add(std::uint64_t hash, Equal&& equal, Make&& make) {
    if (2 * (terms_.size() + 1) > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      std::uint32_t slot = slots_[i];
      if (slot == 0) {
        slots_[i] = static_cast<std::uint32_t>(terms_.size()) + 1;
        hashes_.push_back(hash);
        terms_.push_back(make());
        return static_cast<std::uint32_t>(terms_.size()) - 1;
      }
      if (hashes_[slot - 1] == hash && equal(terms_[slot - 1])) return slot - 1;
    }
  }

  void grow() {
    std::vector<std::uint32_t> bigger(std::max<std::size_t>(1024, slots_.size() * 2), 0);
    std::size_t mask = bigger.size() - 1;
    for (std::uint32_t t = 0; t < terms_.size(); ++t) {
      std::size_t i = hashes_[t] & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = t + 1;
    }
    slots_ = std::move(bigger);
  }

  std::uint32_t intern_word(std::u32string_view w) {
    return find_or_add(
        hash_word(w) & ~std::uint64_t{1},
        [&](const Term& t) {
          return t.is_word && std::u32string_view(chars_.data() + t.offset, t.length) == w;
        },
        [&] {
          Term t;
          t.offset = static_cast<std::uint32_t>(chars_.size());
          t.length = static_cast<std::uint32_t>(w.size());
          t.is_word = true;
          chars_.append(w);
          return t;
        });
  }

  std::uint32_t intern_cjk(std::uint64_t key) {
    return find_or_add(
        hash_key(key), [&](const Term& t) { return !t.is_word && t.key == key; },
        [&] {
          Term t;
          t.key = key;
          return t;
        });
  }

  std::vector<Term> terms_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> slots_;
  std::u32string chars_;
  std::vector<std::uint32_t> touched_;
  std::vector<Posting> postings_;
  std::uint32_t section_ = 0;
};

constexpr std::uint64_t cjk_key(char32_t first, char32_t second) {
  return static_cast<std::uint64_t>(first) << 21 | second;
}

void collect(std::u32string_view folded, bool title, TermCollector& terms) {
  scan(
      folded, [&](std::u32string_view w) { terms.add_word(w, title); },
      [&](std::u32string_view r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k) terms.add_cjk(cjk_key(r[k], r[k + 1]), title);
        terms.add_cjk(cjk_key(r.back(), 0), title);
      });
}

}  // namespace

SearchStats build_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               std::map<std::string, std::string>& files, const SearchIndexOptions& options) {
  const std::size_t shard_target = std::max<std::size_t>(1, options.shard_bytes);
  const std::size_t chunk_target = options.chunk_bytes;
  SearchStats stats;
  stats.sections = sections.size();
  std::size_t largest_shard = 0;
  std::vector<std::size_t> chunk_sizes;
  // Every file but docs.json is gzipped (the client inflates it with DecompressionStream); returns
  // the size written.
  auto emit = [&](const std::string& name, const std::string& content) {
    std::string bytes = name == "docs.json" ? content : gzip(content);
    stats.index_bytes += bytes.size();
    std::size_t size = bytes.size();
    files[name] = std::move(bytes);
    ++stats.files;
    return size;
  };

  // Every term of every section, interned; the stored texts; the titles.
  TermCollector terms;
  std::vector<std::string> titles, texts;
  titles.reserve(sections.size());
  texts.reserve(sections.size());
  std::u32string folded;
  for (std::uint32_t s = 0; s < sections.size(); ++s) {
    terms.start_section(s);
    titles.push_back(stored_form(sections[s].title));
    texts.push_back(stored_form(sections[s].text));
    folded.clear();
    append_folded(titles.back(), folded);
    collect(folded, true, terms);
    folded.clear();
    append_folded(texts.back(), folded);
    collect(folded, false, terms);
    terms.end_section();
  }

  // Terms in the files' order: words by code points, CJK terms by (first, second); then each term's
  // postings, encoded once, in section order (a stable counting sort of the postings by rank).
  std::vector<std::uint32_t> word_ids, cjk_ids;
  for (std::uint32_t t = 0; t < terms.size(); ++t) (terms.is_word(t) ? word_ids : cjk_ids).push_back(t);
  std::sort(word_ids.begin(), word_ids.end(),
            [&](std::uint32_t a, std::uint32_t b) { return terms.word(a) < terms.word(b); });
  std::sort(cjk_ids.begin(), cjk_ids.end(),
            [&](std::uint32_t a, std::uint32_t b) { return terms.cjk_key(a) < terms.cjk_key(b); });
  std::vector<std::string> encoded(terms.size());
  {
    std::vector<std::uint32_t> previous(terms.size(), 0);
    for (const auto& p : terms.postings()) {
      std::uint32_t section = p.value >> 2;
      append_varint(encoded[p.term], ((section - previous[p.term]) << 2) | (p.value & 3u));
      previous[p.term] = section;
    }
  }

  // CJK shards, by the first character's code point modulo the shard count. One line per first
  // character: the character, the postings of its unigram (ASCII), then each second character
  // followed by the postings of that bigram. Postings are ASCII and the characters are not, so the
  // line needs no separators.
  std::size_t cjk_bytes = 0;
  for (std::uint32_t t : cjk_ids)
    cjk_bytes += 3 * ((terms.cjk_key(t) & 0x1FFFFF) ? 2 : 1) + encoded[t].size();
  const std::size_t cjk_shards = cjk_ids.empty() ? 0 : std::max<std::size_t>(1, cjk_bytes / shard_target);
  {
    std::vector<std::string> shards(cjk_shards);
    for (std::size_t i = 0; i < cjk_ids.size();) {
      const auto first = static_cast<char32_t>(terms.cjk_key(cjk_ids[i]) >> 21);
      std::string& out = shards[first % cjk_shards];
      text::append_utf8(out, first);
      for (; i < cjk_ids.size() && (terms.cjk_key(cjk_ids[i]) >> 21) == first; ++i) {
        const auto second = static_cast<char32_t>(terms.cjk_key(cjk_ids[i]) & 0x1FFFFF);
        if (second != 0) text::append_utf8(out, second);
        out += encoded[cjk_ids[i]];
      }
      out += '\n';
    }
    for (std::size_t k = 0; k < shards.size(); ++k) {
      largest_shard = std::max(largest_shard, emit("c" + std::to_string(k) + ".txt.gz", shards[k]));
    }
  }

  // Word shards, keyed by the first character, or by the first two where one character's words
  // would exceed a shard; consecutive keys are packed into files. Lines are front-coded: the count
  // of leading characters shared with the previous word (one digit of the alphabet), the rest of
  // the word, a tab, the postings.
  std::map<std::u32string, std::size_t, std::less<>> key_bytes;
  auto line_bytes = [&](std::uint32_t t) { return terms.word(t).size() + 2 + encoded[t].size(); };
  {
    std::map<char32_t, std::size_t> first_bytes;
    for (std::uint32_t t : word_ids) first_bytes[terms.word(t)[0]] += line_bytes(t);
    for (std::uint32_t t : word_ids) {
      std::u32string_view w = terms.word(t);
      bool split = first_bytes[w[0]] > shard_target;
      key_bytes[std::u32string(w.substr(0, split ? 2 : 1))] += line_bytes(t);
    }
  }
  std::map<std::u32string, std::size_t, std::less<>> file_of_key;
  std::vector<std::string> word_files;
  {
    std::size_t file = 0, size = 0;
    bool any = false;
    for (auto& [key, bytes] : key_bytes) {
      if (any && size + bytes > shard_target) ++file, size = 0;
      file_of_key[key] = file;
      size += bytes;
      any = true;
    }
    word_files.resize(any ? file + 1 : 0);
    std::vector<std::u32string_view> previous(word_files.size());
    auto file_of = [&](std::u32string_view w) {
      if (w.size() >= 2)
        if (auto it = file_of_key.find(w.substr(0, 2)); it != file_of_key.end()) return it->second;
      return file_of_key.find(w.substr(0, 1))->second;
    };
    for (std::uint32_t t : word_ids) {
      std::u32string_view w = terms.word(t);
      std::size_t f = file_of(w);
      std::size_t shared = std::min<std::size_t>(common_prefix(previous[f], w), kDigits.size() - 1);
      std::string& out = word_files[f];
      out += kDigits[shared];
      out += text::to_utf8(w.substr(shared));
      out += '\t';
      out += encoded[t];
      out += '\n';
      previous[f] = w;
    }
    for (std::size_t k = 0; k < word_files.size(); ++k) {
      largest_shard = std::max(largest_shard, emit("w" + std::to_string(k) + ".txt.gz", word_files[k]));
    }
  }

  // Text chunks: consecutive sections' texts as a JSON array, a section never split.
  std::vector<std::size_t> chunk_first;
  {
    std::string chunk;
    std::size_t count = 0;
    auto flush = [&] {
      if (count == 0) return;
      chunk += ']';
      chunk_sizes.push_back(emit("t" + std::to_string(chunk_first.size() - 1) + ".json.gz", chunk));
      chunk.clear();
      count = 0;
    };
    for (std::size_t s = 0; s < texts.size(); ++s) {
      if (count > 0 && chunk.size() + texts[s].size() > chunk_target) flush();
      if (count == 0) {
        chunk_first.push_back(s);
        chunk = "[";
      } else {
        chunk += ',';
      }
      text::append_json_quoted(chunk, texts[s]);
      ++count;
    }
    flush();
  }

  // docs.json: everything a query needs before it fetches postings.
  std::string docs = "{\"version\":1,\"lang\":";
  text::append_json_quoted(docs, lang);
  std::vector<std::pair<std::string, std::string>> chapters;  // (title, page), in order of appearance
  std::map<std::pair<std::string, std::string>, std::size_t> chapter_index;
  std::vector<std::size_t> chapter_of(sections.size());
  for (std::size_t s = 0; s < sections.size(); ++s) {
    if (s > 0 && sections[s].chapter == sections[s - 1].chapter && sections[s].page == sections[s - 1].page) {
      chapter_of[s] = chapter_of[s - 1];
      continue;
    }
    std::pair<std::string, std::string> c{stored_form(sections[s].chapter), sections[s].page};
    auto [it, added] = chapter_index.try_emplace(c, chapters.size());
    if (added) chapters.push_back(std::move(c));
    chapter_of[s] = it->second;
  }
  docs += ",\n\"chapters\":[";
  for (std::size_t c = 0; c < chapters.size(); ++c) {
    docs += c ? ",\n[" : "[";
    text::append_json_quoted(docs, chapters[c].first);
    docs += ',';
    text::append_json_quoted(docs, chapters[c].second);
    docs += ']';
  }
  docs += "],\n\"sections\":[";
  for (std::size_t s = 0; s < sections.size(); ++s) {
    docs += s ? ",\n[" : "[";
    docs += std::to_string(chapter_of[s]) + ',';
    text::append_json_quoted(docs, sections[s].anchor);
    docs += ',';
    text::append_json_quoted(docs, titles[s]);
    docs += ']';
  }
  docs += "],\n\"chunks\":[";
  for (std::size_t k = 0; k < chunk_first.size(); ++k)
    docs += (k ? "," : "") + std::to_string(chunk_first[k]);
  docs += "],\n\"cjk\":" + std::to_string(cjk_shards) + ",\n\"words\":{";
  bool first = true;
  for (auto& [key, file] : file_of_key) {
    if (!first) docs += ',';
    first = false;
    text::append_json_quoted(docs, text::to_utf8(key));
    docs += ':' + std::to_string(file);
  }
  docs += "}}\n";
  emit("docs.json", docs);

  std::sort(chunk_sizes.rbegin(), chunk_sizes.rend());
  stats.largest_query_bytes = docs.size() + largest_shard;
  for (std::size_t k = 0; k < chunk_sizes.size() && k < kResultsPerPage; ++k)
    stats.largest_query_bytes += chunk_sizes[k];
  return stats;
}

}  // namespace bb::site
