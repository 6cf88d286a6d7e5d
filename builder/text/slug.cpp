// Automatic heading identifiers of GitHub and Pandoc, on ICU character properties (see slug.hpp).
#include "text/slug.hpp"

#include <unicode/uchar.h>

#include "text/unicode.hpp"

namespace bb::text {
namespace {

bool is_alnum_or_mark(char32_t c) {
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

char32_t lower(char32_t c) {
  return static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));
}

}  // namespace

std::string github_slug(std::string_view heading) {
  std::string out;
  for (std::size_t i = 0; i < heading.size();) {
    const char32_t c = next_code_point(heading, i);
    if (c == ' ')
      out += '-';
    else if (c == '-' || c == '_' || is_alnum_or_mark(c))
      append_utf8(out, lower(c));
  }
  return out;
}

std::string pandoc_slug(std::string_view heading) {
  std::string out;
  bool seen_letter = false, pending_space = false;
  for (std::size_t i = 0; i < heading.size();) {
    const char32_t c = next_code_point(heading, i);
    if (!seen_letter && !is_letter(c)) continue;
    seen_letter = true;
    if (u_isUWhiteSpace(static_cast<UChar32>(c))) {
      pending_space = true;
      continue;
    }
    if (!(is_alnum_or_mark(c) || c == '_' || c == '-' || c == '.')) continue;
    if (pending_space) out += '-';
    pending_space = false;
    append_utf8(out, lower(c));
  }
  return out.empty() ? "section" : out;
}

}  // namespace bb::text
