// URL classification: the one place that decides whether a link target in a manuscript is a file of
// the book, a fragment, a web address, or something no output may carry (javascript:, data:).
#pragma once

#include <string>
#include <string_view>

namespace bb::text {

enum class UrlKind {
  Empty,         // ""
  Fragment,      // "#x": a place in the same chapter
  Relative,      // "figures/a.svg", "../README.md#x": a file, relative to the manuscript
  RootRelative,  // "/x": relative to a web server's root; no file in a book is meant by it
  External,      // a scheme a reader's browser opens safely (http, https, mailto, ftp, tel, ...),
                 // or a network path "//host/x"
  Data,          // "data:": inline bytes; allowed for images only
  Script,        // "javascript:", "vbscript:": runs code; never allowed
};

// How `url` is read by a browser: leading spaces and control characters are skipped and ASCII
// tabs/newlines inside the scheme are ignored (WHATWG URL), so "java\tscript:" is a script too.
UrlKind classify_url(std::string_view url);

// The lower-cased scheme ("https"), or "" when `url` has none.
std::string url_scheme(std::string_view url);

// A URL split at its first `#`.
struct UrlParts {
  std::string path;
  std::string fragment;
  bool has_fragment = false;
};
UrlParts split_url(std::string_view url);

// Decodes %XX escapes (invalid escapes are kept as written).
std::string percent_decode(std::string_view s);
// Escapes every byte of a path except unreserved characters and `/` (RFC 3986 §2.3).
std::string percent_encode_path(std::string_view path);

}  // namespace bb::text
