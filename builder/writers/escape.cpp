// Escaping for LaTeX text, URLs and labels (XML escaping lives in text/escape).
#include "writers/escape.hpp"

#include <array>
#include <cctype>

namespace bb::writers {

void append_escaped_latex(std::string& out, std::string_view s) {
  // The bytes that need a look; the rest is copied in runs.
  static constexpr auto special = [] {
    std::array<bool, 256> t{};
    for (unsigned char c : std::string_view("\\{}$&#_%^~`\"-<>")) t[c] = true;
    return t;
  }();
  std::size_t plain = 0;  // s[plain, i) is copied as it is
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!special[static_cast<unsigned char>(c)]) continue;
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
