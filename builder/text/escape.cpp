// XML escaping by hand (five characters) and JSON strings through nlohmann-json (see escape.hpp).
#include "text/escape.hpp"

#include <nlohmann/json.hpp>

#include "text/unicode.hpp"

namespace bb::text {

void append_escaped_xml(std::string& out, std::string_view s) {
  std::size_t plain = 0;  // s[plain, i) is copied as it is, in one piece
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char* entity = nullptr;
    switch (s[i]) {
      case '&': entity = "&amp;"; break;
      case '<': entity = "&lt;"; break;
      case '>': entity = "&gt;"; break;
      case '"': entity = "&quot;"; break;
      case '\'': entity = "&#39;"; break;
      default: continue;
    }
    out.append(s.substr(plain, i - plain));
    out += entity;
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
