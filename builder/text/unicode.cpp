// UTF-8 and character properties on ICU (utf8.h macros, uchar.h properties, uscript.h scripts).
#include "text/unicode.hpp"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

namespace bb::text {

char32_t decode_utf8(std::string_view s, std::size_t pos, std::size_t& length) {
  if (pos >= s.size()) {
    length = 1;
    return 0xFFFD;
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(s.data());
  const auto size = static_cast<std::int32_t>(std::min<std::size_t>(s.size(), INT32_MAX));
  auto i = static_cast<std::int32_t>(pos);
  UChar32 c = 0;
  U8_NEXT(bytes, i, size, c);
  if (c < 0) {
    length = 1;
    return 0xFFFD;
  }
  length = static_cast<std::size_t>(i) - pos;
  return static_cast<char32_t>(c);
}

char32_t next_code_point(std::string_view s, std::size_t& pos) {
  std::size_t length = 1;
  char32_t c = decode_utf8(s, pos, length);
  pos += length;
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  std::uint8_t buf[U8_MAX_LENGTH];
  std::int32_t n = 0;
  U8_APPEND_UNSAFE(buf, n, static_cast<UChar32>(c));  // c is a valid scalar value, buf fits 4 bytes
  out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

std::string to_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) append_utf8(out, c);
  return out;
}

std::u32string to_utf32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) out += next_code_point(s, i);
  return out;
}

bool valid_utf8(std::string_view s, std::size_t* bad) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 1;
    if (decode_utf8(s, i, length) == 0xFFFD && length == 1) {
      if (bad) *bad = i;
      return false;
    }
    i += length;
  }
  return true;
}

bool is_cjk(char32_t c) {
  if (c >= 0x4E00 && c <= 0x9FFF) return true;  // the unified ideographs, without asking ICU
  if (c < 0x1100) return false;                 // Hangul Jamo is the first CJK block
  UErrorCode status = U_ZERO_ERROR;
  switch (uscript_getScript(static_cast<UChar32>(c), &status)) {
    case USCRIPT_HAN:
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA:
    case USCRIPT_HANGUL:
    case USCRIPT_BOPOMOFO: return true;
    default: break;
  }
  // Ideographic punctuation (、。「」), the CJK symbols block and full-width forms are Common script.
  auto width =
      static_cast<UEastAsianWidth>(u_getIntPropertyValue(static_cast<UChar32>(c), UCHAR_EAST_ASIAN_WIDTH));
  return width == U_EA_FULLWIDTH ||
         (width == U_EA_WIDE && u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_IDEOGRAPHIC)) ||
         (c >= 0x3000 && c <= 0x303F);
}

bool is_cjk_letter(char32_t c) {
  if (c >= 0x4E00 && c <= 0x9FFF) return true;
  if (c < 0x1100) return false;
  const auto u = static_cast<UChar32>(c);
  if ((U_GET_GC_MASK(u) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) == 0) return false;
  // Script_Extensions, so that marks shared by both kanas (ー, ゛) count too.
  for (UScriptCode script :
       {USCRIPT_HAN, USCRIPT_HIRAGANA, USCRIPT_KATAKANA, USCRIPT_HANGUL, USCRIPT_BOPOMOFO})
    if (uscript_hasScript(u, script)) return true;
  return false;
}

bool is_letter(char32_t c) {
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_L_MASK) != 0;
}

std::string lower(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t pos = 0; pos < s.size();)
    append_utf8(out, static_cast<char32_t>(u_tolower(next_code_point(s, pos))));
  return out;
}

int char_width(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return 0;
  if (c < 0x300) return 1;  // Latin, with no combining marks below U+0300
  auto u = static_cast<UChar32>(c);
  auto type = static_cast<UCharCategory>(u_charType(u));
  if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_FORMAT_CHAR) return 0;
  auto width = static_cast<UEastAsianWidth>(u_getIntPropertyValue(u, UCHAR_EAST_ASIAN_WIDTH));
  return width == U_EA_WIDE || width == U_EA_FULLWIDTH ? 2 : 1;
}

int display_width(std::string_view s) {
  int w = 0;
  for (std::size_t i = 0; i < s.size();) w += char_width(next_code_point(s, i));
  return w;
}

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  std::size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(kSpace);
  return s.substr(b, e - b + 1);
}

}  // namespace bb::text
