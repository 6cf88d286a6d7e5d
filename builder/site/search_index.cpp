// The site's search index: tokeniser (shared rule with website/search.js), sections of a chapter,
// and the files of one edition's index (docs.json, postings shards, text chunks; docs/search.md).
#include "site/search_index.hpp"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "output/staging.hpp"

namespace bb::site {

namespace fs = std::filesystem;

namespace {

void append_utf8(std::string& out, char32_t c) {
  char buf[4];
  std::int32_t n = 0;
  UBool error = false;
  U8_APPEND(reinterpret_cast<std::uint8_t*>(buf), n, 4, static_cast<UChar32>(c), error);
  if (!error) out.append(buf, static_cast<std::size_t>(n));
}

std::string to_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) append_utf8(out, c);
  return out;
}

const icu::Normalizer2& normalizer(bool compat) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n =
      compat ? icu::Normalizer2::getNFKCInstance(status) : icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status) || n == nullptr) throw std::runtime_error("ICU normalizer unavailable");
  return *n;
}

icu::UnicodeString nfc(std::string_view utf8) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString s =
      icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  icu::UnicodeString out = normalizer(false).normalize(s, status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU NFC normalization failed");
  return out;
}

// lowercase(NFKC(c)) for one code point, memoised: a book uses a few thousand distinct characters.
const std::u32string& fold_char(char32_t c) {
  thread_local std::unordered_map<char32_t, std::u32string> cache;
  auto it = cache.find(c);
  if (it != cache.end()) return it->second;
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
  return cache.emplace(c, std::move(folded)).first->second;
}

// The stored form of a text: NFC with runs of white space collapsed to one space, trimmed.
std::string stored_form(std::string_view utf8) {
  icu::UnicodeString s = nfc(utf8);
  std::string out;
  bool space = false;
  for (int32_t i = 0; i < s.length();) {
    UChar32 c = s.char32At(i);
    i += U16_LENGTH(c);
    if (u_isUWhiteSpace(c) || c == 0) {
      space = !out.empty();
      continue;
    }
    if (u_iscntrl(c)) continue;
    if (space) out += ' ';
    space = false;
    append_utf8(out, static_cast<char32_t>(c));
  }
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
struct Posting {
  std::uint32_t section = 0;
  std::uint32_t weight = 0;
};

std::uint32_t weight_of(bool in_title, std::uint32_t count) {
  if (in_title) return 3;
  return count >= 4 ? 2 : count >= 2 ? 1 : 0;
}

std::string encode_postings(const std::vector<Posting>& postings) {
  std::string out;
  std::uint32_t prev = 0;
  for (const auto& p : postings) {
    append_varint(out, ((p.section - prev) << 2) | p.weight);
    prev = p.section;
  }
  return out;
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

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
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

bool is_cjk(char32_t c) {
  return (c >= 0x1100 && c <= 0x11FF) ||               // Hangul Jamo
         (c >= 0x2E80 && c <= 0x2FDF) ||               // CJK and Kangxi radicals
         c == 0x3005 || c == 0x3006 || c == 0x3007 ||  // 々 〆 〇
         (c >= 0x3021 && c <= 0x3029) ||               // Hangzhou numerals
         (c >= 0x3038 && c <= 0x303B) ||               //
         (c >= 0x3041 && c <= 0x3096) ||               // Hiragana
         (c >= 0x309D && c <= 0x309F) ||               //
         (c >= 0x30A1 && c <= 0x30FA) ||               // Katakana
         (c >= 0x30FC && c <= 0x30FF) ||               //
         (c >= 0x3105 && c <= 0x312F) ||               // Bopomofo
         (c >= 0x3131 && c <= 0x318E) ||               // Hangul compatibility Jamo
         (c >= 0x31A0 && c <= 0x31BF) ||               // Bopomofo extended
         (c >= 0x31F0 && c <= 0x31FF) ||               // Katakana extension
         (c >= 0x3400 && c <= 0x4DBF) ||               // Extension A
         (c >= 0x4E00 && c <= 0x9FFF) ||               // Unified ideographs
         (c >= 0xA960 && c <= 0xA97F) ||               // Hangul Jamo extended A
         (c >= 0xAC00 && c <= 0xD7AF) ||               // Hangul syllables
         (c >= 0xD7B0 && c <= 0xD7FF) ||               // Hangul Jamo extended B
         (c >= 0xF900 && c <= 0xFAFF) ||               // Compatibility ideographs
         (c >= 0x20000 && c <= 0x3FFFF);               // Extensions B–H
}

bool is_word_char(char32_t c) {
  if (is_cjk(c)) return false;
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

std::u32string fold(std::string_view utf8) {
  icu::UnicodeString s = nfc(utf8);
  std::u32string out;
  out.reserve(static_cast<std::size_t>(s.length()));
  for (int32_t i = 0; i < s.length();) {
    UChar32 c = s.char32At(i);
    i += U16_LENGTH(c);
    out += fold_char(static_cast<char32_t>(c));
  }
  return out;
}

namespace {

// Calls word(w) for each word and cjk(run) for each run of CJK characters of a folded text.
template <typename Word, typename Run>
void scan(std::u32string_view f, Word&& word, Run&& run) {
  std::size_t i = 0;
  while (i < f.size()) {
    std::size_t j = i;
    if (is_cjk(f[i])) {
      while (j < f.size() && is_cjk(f[j])) ++j;
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

struct FoldedToken {
  std::u32string text;
  TokenKind kind;
};

std::vector<FoldedToken> folded_tokens(std::u32string_view f) {
  std::vector<FoldedToken> out;
  scan(
      f,
      [&](std::u32string_view w) {
        out.push_back({std::u32string(w), TokenKind::Word});
      },
      [&](std::u32string_view r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k)
          out.push_back({std::u32string(r.substr(k, 2)), TokenKind::Bigram});
        out.push_back({std::u32string(r.substr(r.size() - 1)), TokenKind::Unigram});
      });
  return out;
}

}  // namespace

std::vector<Token> tokenize(std::string_view utf8) {
  std::vector<Token> out;
  for (auto& t : folded_tokens(fold(utf8))) out.push_back({to_utf8(t.text), t.kind});
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
using TermKey = std::pair<std::u32string, bool>;
struct TermKeyHash {
  std::size_t operator()(const TermKey& k) const noexcept {
    return std::hash<std::u32string>{}(k.first) * 2 + static_cast<std::size_t>(k.second);
  }
};
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

  // Postings of every term: words keyed by their folded text, CJK terms by theirs (no overlap: a
  // word never contains a CJK character).
  std::map<std::u32string, std::vector<Posting>> words, cjk;
  std::vector<std::string> titles, texts;
  for (std::uint32_t s = 0; s < sections.size(); ++s) {
    titles.push_back(stored_form(sections[s].title));
    texts.push_back(stored_form(sections[s].text));
    // (term, is word) → count; hashed, since a section has thousands of tokens and few terms repeat
    // across the per-term lists below (which stay ordered, so the files are deterministic).
    std::unordered_map<TermKey, std::uint32_t, TermKeyHash> counts;
    std::unordered_map<TermKey, bool, TermKeyHash> in_title;
    for (auto& t : folded_tokens(fold(titles.back()))) in_title[{t.text, t.kind == TokenKind::Word}] = true;
    for (auto& t : folded_tokens(fold(texts.back()))) ++counts[{t.text, t.kind == TokenKind::Word}];
    for (auto& [key, yes] : in_title) counts.try_emplace(key, 0);
    for (auto& [key, n] : counts) {
      auto& list = key.second ? words[key.first] : cjk[key.first];
      list.push_back({s, weight_of(in_title.count(key) > 0, n)});
    }
  }

  // CJK shards, by the first character's code point modulo the shard count. One line per first
  // character: the character, the postings of its unigram (ASCII), then each second character
  // followed by the postings of that bigram. Postings are ASCII and the characters are not, so the
  // line needs no separators.
  std::size_t cjk_bytes = 0;
  for (auto& [t, p] : cjk) cjk_bytes += 3 * t.size() + encode_postings(p).size();
  const std::size_t cjk_shards = cjk.empty() ? 0 : std::max<std::size_t>(1, cjk_bytes / shard_target);
  {
    std::vector<std::string> shards(cjk_shards);
    for (auto it = cjk.begin(); it != cjk.end();) {
      const char32_t first = it->first[0];
      std::string& out = shards[first % cjk_shards];
      append_utf8(out, first);
      for (; it != cjk.end() && it->first[0] == first; ++it) {
        if (it->first.size() == 2) append_utf8(out, it->first[1]);
        out += encode_postings(it->second);
      }
      out += '\n';
    }
    for (std::size_t k = 0; k < shards.size(); ++k) {
      largest_shard = std::max(largest_shard, emit("c" + std::to_string(k) + ".txt.gz", shards[k]));
    }
  }
  // (The unigram comes first on its line because std::map orders "计" before "计算".)

  // Word shards, keyed by the first character, or by the first two where one character's words
  // would exceed a shard; consecutive keys are packed into files. Lines are front-coded: the count
  // of leading characters shared with the previous word (one digit of the alphabet), the rest of
  // the word, a tab, the postings.
  std::map<std::u32string, std::size_t> key_bytes;
  auto line_bytes = [](const std::u32string& w, const std::vector<Posting>& p) {
    return w.size() + 2 + encode_postings(p).size();
  };
  {
    std::map<char32_t, std::size_t> first_bytes;
    for (auto& [w, p] : words) first_bytes[w[0]] += line_bytes(w, p);
    for (auto& [w, p] : words) {
      bool split = first_bytes[w[0]] > shard_target;
      key_bytes[w.substr(0, split ? 2 : 1)] += line_bytes(w, p);
    }
  }
  std::map<std::u32string, std::size_t> file_of_key;
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
    std::vector<std::u32string> previous(word_files.size());
    auto key_of = [&](const std::u32string& w) {
      if (w.size() >= 2 && file_of_key.count(w.substr(0, 2))) return w.substr(0, 2);
      return w.substr(0, 1);
    };
    for (auto& [w, p] : words) {
      std::size_t f = file_of_key.at(key_of(w));
      std::size_t shared = std::min<std::size_t>(common_prefix(previous[f], w), kDigits.size() - 1);
      std::string& out = word_files[f];
      out += kDigits[shared];
      out += to_utf8(std::u32string_view(w).substr(shared));
      out += '\t';
      out += encode_postings(p);
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
      append_json_string(chunk, texts[s]);
      ++count;
    }
    flush();
  }

  // docs.json: everything a query needs before it fetches postings.
  std::string docs = "{\"version\":1,\"lang\":";
  append_json_string(docs, lang);
  std::vector<std::pair<std::string, std::string>> chapters;  // (title, page), in order of appearance
  std::vector<std::size_t> chapter_of(sections.size());
  for (std::size_t s = 0; s < sections.size(); ++s) {
    std::pair<std::string, std::string> c{stored_form(sections[s].chapter), sections[s].page};
    auto it = std::find(chapters.begin(), chapters.end(), c);
    chapter_of[s] = static_cast<std::size_t>(it - chapters.begin());
    if (it == chapters.end()) chapters.push_back(std::move(c));
  }
  docs += ",\n\"chapters\":[";
  for (std::size_t c = 0; c < chapters.size(); ++c) {
    docs += c ? ",\n[" : "[";
    append_json_string(docs, chapters[c].first);
    docs += ',';
    append_json_string(docs, chapters[c].second);
    docs += ']';
  }
  docs += "],\n\"sections\":[";
  for (std::size_t s = 0; s < sections.size(); ++s) {
    docs += s ? ",\n[" : "[";
    docs += std::to_string(chapter_of[s]) + ',';
    append_json_string(docs, sections[s].anchor);
    docs += ',';
    append_json_string(docs, titles[s]);
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
    append_json_string(docs, to_utf8(key));
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
