// pymdownx's uslugify and Python-Markdown's id dedup on ICU (see uslug.hpp). Python's `\w` is
// `str.isalnum()` or `_`: general categories L and N, but not marks (M), which uslugify drops.
#include "text/uslug.hpp"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include "text/unicode.hpp"

namespace bb::text {
namespace {

bool is_python_word(char32_t c) {
  return c == '_' || (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK)) != 0;
}

// Python's str.strip() removes characters for which str.isspace() holds: White_Space plus the
// separators U+001C..U+001F.
bool is_python_space(char32_t c) {
  return (c >= 0x1C && c <= 0x1F) || u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE);
}

std::string full_lower(std::string_view s) {
  icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  u.toLower(icu::Locale::getRoot());  // full mapping, as str.lower() ("İ" → "i̇")
  std::string out;
  u.toUTF8String(out);
  return out;
}

// `</?[^>]*>` removed, as pymdownx does before anything else (after NFC, which does not touch `<>`).
std::string strip_tags(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') {
      std::size_t close = s.find('>', i + 1);
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::string strip_spaces(const std::string& s) {
  std::u32string u = to_utf32(s);
  std::size_t b = 0, e = u.size();
  while (b < e && is_python_space(u[b])) ++b;
  while (e > b && is_python_space(u[e - 1])) --e;
  return to_utf8(std::u32string_view(u).substr(b, e - b));
}

}  // namespace

std::string uslugify(std::string_view heading) {
  // NFC first, then tags, then strip, then lower: pymdownx's order (lowering can change lengths).
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(heading.data(), static_cast<int32_t>(heading.size())));
  if (U_SUCCESS(status)) u = nfc->normalize(u, status);
  std::string normalized;
  u.toUTF8String(normalized);
  const std::string lowered = full_lower(strip_spaces(strip_tags(normalized)));
  std::string out;
  for (std::size_t i = 0; i < lowered.size();) {
    const char32_t c = next_code_point(lowered, i);
    if (c == ' ')
      out += '-';
    else if (c == '-' || is_python_word(c))
      append_utf8(out, c);
  }
  return out;
}

std::string unique_mkdocs_id(std::string id, std::set<std::string>& used) {
  while (id.empty() || used.count(id)) {
    // `^(.*)_([0-9]+)$`: a trailing `_N` counts on.
    std::size_t digits = id.size();
    while (digits > 0 && id[digits - 1] >= '0' && id[digits - 1] <= '9') --digits;
    if (digits < id.size() && digits > 0 && id[digits - 1] == '_' && id.size() - digits < 18)
      id = id.substr(0, digits) + std::to_string(std::stoll(id.substr(digits)) + 1);
    else
      id += "_1";
  }
  used.insert(id);
  return id;
}

}  // namespace bb::text
