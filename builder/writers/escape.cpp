// Escaping for HTML/XHTML text and attributes, and id sanitising.
#include "writers/escape.hpp"

#include <cctype>

namespace bb::writers {

void append_escaped_xml(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

std::string escape_xml(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  append_escaped_xml(out, s);
  return out;
}

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

}  // namespace bb::writers
