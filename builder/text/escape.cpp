// XML escaping by hand (five characters) and JSON strings through nlohmann-json (see escape.hpp).
#include "text/escape.hpp"

#include <nlohmann/json.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "text/unicode.hpp"

namespace bb::text {

namespace {

// The entity of one of the five characters XML escapes, or null.
const char* entity_of(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    default: return nullptr;
  }
}

// The first position at or after `i` holding one of the five characters, or s.size(). Most text holds
// none (a page's prose, and its CJK text has no ASCII at all): sixteen bytes are tested at a time, where
// the byte-by-byte switch was 8% of a site build's instructions.
std::size_t next_special(std::string_view s, std::size_t i) {
#if defined(__SSE2__)
  const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
                quot = _mm_set1_epi8('"'), apos = _mm_set1_epi8('\'');
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, quot))),
                     _mm_cmpeq_epi8(v, apos));
    if (const int mask = _mm_movemask_epi8(hit)) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < s.size(); ++i)
    if (entity_of(s[i])) return i;
  return s.size();
}

}  // namespace

void append_escaped_xml(std::string& out, std::string_view s) {
  std::size_t plain = 0;  // s[plain, i) is copied as it is, in one piece
  for (std::size_t i = next_special(s, 0); i < s.size(); i = next_special(s, i + 1)) {
    out.append(s.substr(plain, i - plain));
    out += entity_of(s[i]);
    plain = i + 1;
  }
  out.append(s.substr(plain));
}

std::string escape_xml(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  append_escaped_xml(out, s);
  return out;
}

std::string json_quote(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Long texts (the search index's chunks) are quoted without a copy into a json value when nothing
// but `"` and `\\` needs an escape; what nlohmann-json writes for such a string is exactly that.
void append_json_quoted(std::string& out, std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20) return void(out += json_quote(s));
  if (!valid_utf8(s)) return void(out += json_quote(s));
  out.reserve(out.size() + s.size() + 2);
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '"' && s[i] != '\\') continue;
    out.append(s, run, i - run);
    out += '\\';
    run = i;
  }
  out.append(s, run, std::string_view::npos);
  out += '"';
}

}  // namespace bb::text
