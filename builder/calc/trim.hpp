// Trimming white space from calc expressions and catalogue addresses (the calc library stands alone,
// without the tool's ICU-based text module).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace bb::calc {

inline std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace bb::calc
