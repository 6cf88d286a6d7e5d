// XML escaping by hand (five characters) and JSON strings through nlohmann-json (see escape.hpp).
#include "text/escape.hpp"

#include <nlohmann/json.hpp>

namespace bb::text {

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

std::string json_quote(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_json_quoted(std::string& out, std::string_view s) {
  out += json_quote(s);
}

}  // namespace bb::text
