// The site's search index: the sections of a chapter, and the files of one edition's index (docs.json,
// postings shards, text chunks; docs/search.md) from the terms the tokeniser (tokenizer.hpp) finds.
#include "search/search_index.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "output/staging.hpp"
#include "text/escape.hpp"
#include "text/unicode.hpp"

namespace bb::search {

namespace fs = std::filesystem;
using detail::scan;

namespace {

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
    case doc::Kind::DefinitionTerm:
    case doc::Kind::TableCell: add(doc::plain_text(n.children)); return;
    case doc::Kind::CodeBlock:
    case doc::Kind::DisplayMath: add(n.text); return;
    case doc::Kind::Figure:
    case doc::Kind::Table: add(doc::plain_text(n.caption())); break;
    case doc::Kind::HtmlBlock:
    case doc::Kind::ThematicBreak: return;
    default: break;
  }
  for (const auto& c : n.children) append_block_text(c, out);
}

}  // namespace

std::vector<SearchSection> search_sections(const doc::Node& chapter_root, const std::string& page,
                                           const std::string& chapter_title) {
  std::vector<SearchSection> out;
  out.push_back({page, "", chapter_title, chapter_title, ""});
  for (const auto& block : chapter_root.children) {
    if (block.kind == doc::Kind::Heading && block.level() >= 2 && block.level() <= 3) {
      // After the filters, a hand-written number is in `number` and no longer in the text.
      std::string title = doc::plain_text(block.children);
      if (!block.number().empty() && !title.starts_with(block.number())) title = block.number() + " " + title;
      out.push_back({page, block.id(), title, chapter_title, ""});
      continue;
    }
    if (block.kind == doc::Kind::Heading && block.level() == 1 && out.size() == 1) continue;  // the title
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

// The terms of an edition, each interned once: a word by its folded text (kept in `chars_`, a flat
// array), a CJK term by its code points packed in a number (first << 21 | second; a unigram has
// second = 0, which makes it sort before its bigrams). Each kind has its own open-addressing table
// that holds what a probe compares (a word's hash, a CJK term's key), so that a probe that misses
// reads one array. Per term, the counters of the section being scanned; postings are collected in
// section order as (term, section << 2 | weight).
class TermCollector {
 public:
  struct Posting {
    std::uint32_t term;
    std::uint32_t value;  // section << 2 | weight
  };

  // Room for the terms and postings of `bytes` of text, from a ratio measured on real chapters (about
  // one distinct term per 15 bytes of Chinese, fewer for other scripts), so that the arrays are not
  // copied while they grow; only what is used is ever touched.
  void reserve(std::size_t bytes) {
    terms_.reserve(bytes / 8);
    counters_.reserve(bytes / 8);
    postings_.reserve(bytes / 4);
  }

  void start_section(std::uint32_t s) {
    section_ = s;
    touched_.clear();
  }

  void add_word(std::u32string_view w, bool title) { count(intern_word(w), title); }
  void add_cjk(char32_t first, char32_t second, bool title) {
    count(intern_cjk(static_cast<std::uint64_t>(first) << 21 | second), title);
  }

  // Appends the postings of the section just scanned.
  void end_section() {
    for (std::uint32_t t : touched_) {
      const Counter& c = counters_[t];
      postings_.push_back({t, section_ << 2 | weight_of((c.count & kTitle) != 0, c.count & ~kTitle)});
    }
  }

  [[nodiscard]] std::size_t size() const { return terms_.size(); }
  [[nodiscard]] bool is_word(std::uint32_t t) const { return terms_[t].length != 0; }
  [[nodiscard]] std::u32string_view word(std::uint32_t t) const {
    return {chars_.data() + terms_[t].offset, terms_[t].length};
  }
  [[nodiscard]] std::uint64_t cjk_key(std::uint32_t t) const { return terms_[t].key; }

  // Every term's postings, encoded, in one string: term t's are [start[t], start[t + 1]). A stable
  // counting sort of the postings by term keeps each term's in section order.
  void encode(std::string& out, std::vector<std::uint32_t>& start) const {
    std::vector<std::uint32_t> first(terms_.size() + 1, 0);
    for (const Posting& p : postings_) ++first[p.term + 1];
    for (std::size_t t = 0; t < terms_.size(); ++t) first[t + 1] += first[t];
    std::vector<std::uint32_t> values(postings_.size());
    {
      std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
      for (const Posting& p : postings_) values[next[p.term]++] = p.value;
    }
    out.clear();
    out.reserve(postings_.size() * 2);
    start.assign(terms_.size() + 1, 0);
    for (std::size_t t = 0; t < terms_.size(); ++t) {
      start[t] = static_cast<std::uint32_t>(out.size());
      std::uint32_t previous = 0;
      for (std::uint32_t k = first[t]; k < first[t + 1]; ++k) {
        const std::uint32_t section = values[k] >> 2;
        append_varint(out, ((section - previous) << 2) | (values[k] & 3u));
        previous = section;
      }
    }
    start[terms_.size()] = static_cast<std::uint32_t>(out.size());
  }

 private:
  static constexpr std::uint32_t kTitle = 1u << 31;  // in Counter::count: the term is in the title

  struct Term {
    std::uint64_t key = 0;     // CJK: the packed code points
    std::uint32_t offset = 0;  // word: where its characters are in chars_
    std::uint32_t length = 0;  // word: its length (never 0); 0 for a CJK term
  };
  struct Counter {
    std::uint32_t section = 0;  // the section the count belongs to (+1; 0: none yet)
    std::uint32_t count = 0;    // occurrences in the section's text, | kTitle when in its title
  };

  void count(std::uint32_t t, bool title) {
    Counter& c = counters_[t];
    if (c.section != section_ + 1) {
      c.section = section_ + 1;
      c.count = 0;
      touched_.push_back(t);
    }
    if (title)
      c.count |= kTitle;
    else
      ++c.count;
  }

  std::uint32_t add_term(const Term& t) {
    terms_.push_back(t);
    counters_.emplace_back();
    return static_cast<std::uint32_t>(terms_.size() - 1);
  }

  static std::uint64_t hash_word(std::u32string_view w) {
    std::uint64_t h = 1469598103934665603ull;
    for (char32_t c : w) h = (h ^ c) * 1099511628211ull;
    return h ^ (h >> 29);
  }
  static std::uint64_t hash_key(std::uint64_t k) {
    k *= 0x9E3779B97F4A7C15ull;
    return k ^ (k >> 31);
  }

  // A word slot: the hash's upper 32 bits << 32 | term + 1 (0: empty). Tables are kept at most half
  // full.
  std::uint32_t intern_word(std::u32string_view w) {
    if (2 * (word_count_ + 1) > word_slots_.size()) grow_words();
    const std::uint64_t h = hash_word(w);
    const std::uint64_t tag = h & 0xFFFFFFFF00000000ull;
    const std::size_t mask = word_slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const std::uint64_t slot = word_slots_[i];
      if (slot == 0) {
        const auto t =
            add_term({0, static_cast<std::uint32_t>(chars_.size()), static_cast<std::uint32_t>(w.size())});
        chars_.append(w);
        word_slots_[i] = tag | (t + 1u);
        ++word_count_;
        return t;
      }
      if ((slot & 0xFFFFFFFF00000000ull) == tag) {
        const auto t = static_cast<std::uint32_t>(slot) - 1u;
        if (word(t) == w) return t;
      }
    }
  }

  void grow_words() {
    std::vector<std::uint64_t> bigger(std::max<std::size_t>(1024, word_slots_.size() * 2), 0);
    const std::size_t mask = bigger.size() - 1;
    for (std::uint64_t slot : word_slots_) {
      if (slot == 0) continue;
      std::size_t i = hash_word(word(static_cast<std::uint32_t>(slot) - 1u)) & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = slot;
    }
    word_slots_ = std::move(bigger);
  }

  // A CJK slot: key << 22 | term + 1 (0: empty), so that a probe reads one 64-bit word. The rare
  // term past 2^22 - 2 (an edition with millions of distinct terms) is marked kWide and kept in
  // `wide_`.
  static constexpr std::uint64_t kIdBits = 22, kIdMask = (1u << kIdBits) - 1, kWide = kIdMask;

  std::uint32_t intern_cjk(std::uint64_t key) {
    if (3 * (cjk_count_ + 1) > 2 * cjk_slots_.size()) grow_cjk();
    const std::size_t mask = cjk_slots_.size() - 1;
    for (std::size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
      const std::uint64_t slot = cjk_slots_[i];
      if (slot >> kIdBits == key) {
        const std::uint64_t id = slot & kIdMask;
        return id == kWide ? wide_.at(key) : static_cast<std::uint32_t>(id - 1);
      }
      if (slot == 0) {
        const std::uint32_t t = add_term({key, 0, 0});
        if (t + 1u < kWide) {
          cjk_slots_[i] = key << kIdBits | (t + 1u);
        } else {
          cjk_slots_[i] = key << kIdBits | kWide;
          wide_.emplace(key, t);
        }
        ++cjk_count_;
        return t;
      }
    }
  }

  void grow_cjk() {
    std::vector<std::uint64_t> bigger(std::max<std::size_t>(1024, cjk_slots_.size() * 2), 0);
    const std::size_t mask = bigger.size() - 1;
    for (std::uint64_t slot : cjk_slots_) {
      if (slot == 0) continue;
      std::size_t i = hash_key(slot >> kIdBits) & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = slot;
    }
    cjk_slots_ = std::move(bigger);
  }

  std::vector<Term> terms_;
  std::vector<Counter> counters_;
  std::vector<std::uint64_t> word_slots_;
  std::vector<std::uint64_t> cjk_slots_;
  std::unordered_map<std::uint64_t, std::uint32_t> wide_;
  std::size_t word_count_ = 0, cjk_count_ = 0;
  std::u32string chars_;
  std::vector<std::uint32_t> touched_;
  std::vector<Posting> postings_;
  std::uint32_t section_ = 0;
};

// Interns the terms of one stored text (a title or a section's text) for the current section.
void collect(std::string_view stored, bool title, std::u32string& buffer, TermCollector& terms) {
  scan(
      stored, buffer, [&](std::u32string_view w) { terms.add_word(w, title); },
      [&](char32_t first, char32_t second) { terms.add_cjk(first, second, title); });
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
  std::size_t text_bytes = 0;
  for (const auto& section : sections) {
    titles.push_back(stored_form(section.title));
    texts.push_back(stored_form(section.text));
    text_bytes += titles.back().size() + texts.back().size();
  }
  terms.reserve(text_bytes);
  std::u32string buffer;
  for (std::uint32_t s = 0; s < sections.size(); ++s) {
    terms.start_section(s);
    collect(titles[s], true, buffer, terms);
    collect(texts[s], false, buffer, terms);
    terms.end_section();
  }

  // Terms in the files' order: words by code points, CJK terms by (first, second); then each term's
  // postings, encoded once, in section order.
  std::vector<std::uint32_t> word_ids, cjk_ids;
  for (std::uint32_t t = 0; t < terms.size(); ++t) (terms.is_word(t) ? word_ids : cjk_ids).push_back(t);
  std::sort(word_ids.begin(), word_ids.end(),
            [&](std::uint32_t a, std::uint32_t b) { return terms.word(a) < terms.word(b); });
  std::sort(cjk_ids.begin(), cjk_ids.end(),
            [&](std::uint32_t a, std::uint32_t b) { return terms.cjk_key(a) < terms.cjk_key(b); });
  std::string all_postings;
  std::vector<std::uint32_t> postings_start;
  terms.encode(all_postings, postings_start);
  auto encoded = [&](std::uint32_t t) {
    return std::string_view(all_postings)
        .substr(postings_start[t], postings_start[t + 1] - postings_start[t]);
  };

  // CJK shards, by the first character's code point modulo the shard count. One line per first
  // character: the character, the postings of its unigram (ASCII), then each second character
  // followed by the postings of that bigram. Postings are ASCII and the characters are not, so the
  // line needs no separators.
  std::size_t cjk_bytes = 0;
  for (std::uint32_t t : cjk_ids)
    cjk_bytes += 3 * ((terms.cjk_key(t) & 0x1FFFFF) ? 2 : 1) + encoded(t).size();
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
        out += encoded(cjk_ids[i]);
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
  auto line_bytes = [&](std::uint32_t t) { return terms.word(t).size() + 2 + encoded(t).size(); };
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
      for (char32_t c : w.substr(shared)) text::append_utf8(out, c);
      out += '\t';
      out += encoded(t);
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

}  // namespace bb::search
