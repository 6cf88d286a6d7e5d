// The dev server's Content-Security-Policy.
#include "site/csp.hpp"

#include <nettle/base64.h>

#include <cctype>
#include <set>

#include "text/digest.hpp"

namespace bb::site {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string sha256_source(std::string_view text) {
  auto digest = text::sha256(text);
  std::string b64(BASE64_ENCODE_RAW_LENGTH(digest.size()), '\0');
  base64_encode_raw(b64.data(), digest.size(), digest.data());
  return "'sha256-" + b64 + "'";
}

// The hashes of the inline scripts (a <script> without src) of an HTML page.
std::set<std::string> inline_script_hashes(std::string_view html) {
  std::set<std::string> hashes;
  const std::string l = lower(html);
  for (std::size_t at = l.find("<script"); at != std::string::npos; at = l.find("<script", at + 1)) {
    std::size_t open_end = l.find('>', at);
    if (open_end == std::string::npos) break;
    std::string_view tag = std::string_view(l).substr(at, open_end - at);
    std::size_t close = l.find("</script", open_end);
    if (close == std::string::npos) break;
    if (tag.find(" src=") == std::string_view::npos)
      hashes.insert(sha256_source(html.substr(open_end + 1, close - open_end - 1)));
    at = close;
  }
  return hashes;
}

}  // namespace

std::string content_security_policy(std::string_view type, std::string_view body) {
  std::string scripts = "script-src 'self'";
  if (type.starts_with("text/html"))
    for (const auto& h : inline_script_hashes(body)) scripts += " " + h;
  // Styles: table alignment is written as style attributes, which CSP can allow only all together.
  return "default-src 'self'; " + scripts +
         "; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; "
         "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";
}

std::string content_security_policy_header(std::string_view type, std::string_view body) {
  return "Content-Security-Policy: " + content_security_policy(type, body) + "\r\n";
}

}  // namespace bb::site
