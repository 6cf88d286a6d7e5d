// Anchor ids valid in every output format.
#include "doc/ids.hpp"

#include <cctype>

namespace bb::doc {

std::string sanitize_id(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u) || c == '-' || c == '_' || c == ':' || c == '.')
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(0, "id-");
  return out;
}

}  // namespace bb::doc
