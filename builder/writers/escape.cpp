// Escaping for LaTeX text, URLs and labels (XML escaping lives in text/escape).
#include "writers/escape.hpp"

#include <array>
#include <cctype>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bb::writers {

namespace {

// The bytes that need a look; the rest is copied in runs.
constexpr std::string_view kLatexSpecials = "\\{}$&#_%^~`\"-<>";

constexpr std::array<bool, 256> kIsLatexSpecial = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : kLatexSpecials) t[c] = true;
  return t;
}();

// The first position at or after `i` holding a special, or s.size(). Most text holds none for long
// stretches (and a CJK edition's prose has no ASCII at all): sixteen bytes are tested at a time, as
// text::append_escaped_xml does, where the byte-by-byte test was 8% of `latex --edition zh`.
std::size_t next_latex_special(std::string_view s, std::size_t i) {
#if defined(__SSE2__)
  // `"#$%&` and `^_\`` are runs of code points: each is one range test (unsigned: v - low <= span).
  const __m128i quote = _mm_set1_epi8('"'), quote_span = _mm_set1_epi8('&' - '"');
  const __m128i caret = _mm_set1_epi8('^'), caret_span = _mm_set1_epi8('`' - '^');
  const __m128i backslash = _mm_set1_epi8('\\'), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'),
                tilde = _mm_set1_epi8('~'), minus = _mm_set1_epi8('-'), less = _mm_set1_epi8('<'),
                greater = _mm_set1_epi8('>');
  auto in_span = [](__m128i v, __m128i low, __m128i span) {
    const __m128i d = _mm_sub_epi8(v, low);
    return _mm_cmpeq_epi8(_mm_min_epu8(d, span), d);
  };
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_or_si128(in_span(v, quote, quote_span), in_span(v, caret, caret_span)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, open))),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, close), _mm_cmpeq_epi8(v, tilde)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, minus),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, less), _mm_cmpeq_epi8(v, greater)))));
    if (const int mask = _mm_movemask_epi8(hit)) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < s.size(); ++i)
    if (kIsLatexSpecial[static_cast<unsigned char>(s[i])]) return i;
  return s.size();
}

}  // namespace

void append_escaped_latex(std::string& out, std::string_view s) {
  std::size_t plain = 0;  // s[plain, i) is copied as it is
  for (std::size_t i = next_latex_special(s, 0); i < s.size(); i = next_latex_special(s, i + 1)) {
    const char c = s[i];
    out.append(s.substr(plain, i - plain));
    plain = i + 1;
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '$': out += "\\$"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '_': out += "\\_"; break;
      case '%': out += "\\%"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '`': out += "\\textasciigrave{}"; break;
      case '"':
        out += "\\textquotedbl{}";
        break;  // the TeX ligature would make it a closing quote
      // TeX ligatures would turn `--` into a dash and `<<` into a guillemet in some fonts.
      default:  // '-', '<', '>'
        out += c;
        if (i + 1 < s.size() && s[i + 1] == c) out += "{}";
    }
  }
  out.append(s.substr(plain));
}

std::string escape_latex(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  append_escaped_latex(out, s);
  return out;
}

namespace {

// `mark` and the byte's two hex digits (from `digits`, upper or lower case).
void append_hex_byte(std::string& out, char mark, unsigned char u, const char* digits) {
  out += mark;
  out += digits[u >> 4];
  out += digits[u & 15];
}

}  // namespace

std::string escape_latex_url(std::string_view url) {
  std::string out;
  for (char c : url) {
    unsigned char u = static_cast<unsigned char>(c);
    switch (c) {
      case '%': out += "\\%"; break;
      case '#': out += "\\#"; break;
      case '~': out += "\\~"; break;
      default:
        if (c == '\\' || c == '{' || c == '}' || c == '^' || c == ' ' || u < 0x20) {
          append_hex_byte(out, '%', u, "0123456789ABCDEF");  // RFC 3986 prefers upper case
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string latex_label(std::string_view key) {
  std::string out;
  for (char c : key) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x80 && std::isalnum(u)) || c == '-' || c == ':' || c == '.' || c == '_') {
      out += c;
    } else {
      append_hex_byte(out, '+', u, "0123456789abcdef");
    }
  }
  return out;
}

}  // namespace bb::writers
