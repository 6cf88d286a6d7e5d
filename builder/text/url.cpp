// URL classification (RFC 3986 schemes as WHATWG browsers read them) and percent-encoding.
#include "text/url.hpp"

#include <cctype>

namespace bb::text {

std::string url_scheme(std::string_view url) {
  std::size_t i = 0;
  while (i < url.size() && static_cast<unsigned char>(url[i]) <= 0x20) ++i;  // C0 controls and space
  std::string scheme;
  for (; i < url.size(); ++i) {
    auto c = static_cast<unsigned char>(url[i]);
    if (c == '\t' || c == '\n' || c == '\r') continue;  // removed by browsers before parsing
    if (c == ':') return scheme;
    bool ok = std::isalpha(c) || (!scheme.empty() && (std::isdigit(c) || c == '+' || c == '-' || c == '.'));
    if (!ok) return "";
    scheme += static_cast<char>(std::tolower(c));
  }
  return "";
}

UrlKind classify_url(std::string_view url) {
  std::size_t i = 0;
  while (i < url.size() && static_cast<unsigned char>(url[i]) <= 0x20) ++i;
  std::string_view u = url.substr(i);
  if (u.empty()) return UrlKind::Empty;
  std::string scheme = url_scheme(u);
  if (!scheme.empty()) {
    if (scheme == "javascript" || scheme == "vbscript") return UrlKind::Script;
    if (scheme == "data") return UrlKind::Data;
    return UrlKind::External;
  }
  if (u.front() == '#') return UrlKind::Fragment;
  if (u.starts_with("//") || u.starts_with("\\\\")) return UrlKind::External;
  if (u.front() == '/' || u.front() == '\\') return UrlKind::RootRelative;
  return UrlKind::Relative;
}

UrlParts split_url(std::string_view url) {
  UrlParts p;
  std::size_t hash = url.find('#');
  p.path = std::string(url.substr(0, hash));
  if (hash != std::string_view::npos) {
    p.fragment = std::string(url.substr(hash + 1));
    p.has_fragment = true;
  }
  return p;
}

std::string percent_decode(std::string_view s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string percent_encode_path(std::string_view path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace bb::text
