// Escaping for XML text and attributes and for JSON strings: one rule each, for every module that
// writes markup (the writers, the MathML emitter) or JSON (search index, calc results, tree dumps).
#pragma once

#include <string>
#include <string_view>

namespace bb::text {

// Text content and attribute values for HTML5, XHTML and MathML: &, <, >, " and ' are escaped.
void append_escaped_xml(std::string& out, std::string_view s);
std::string escape_xml(std::string_view s);

// `s` as a JSON string literal with its quotes, written by nlohmann-json (UTF-8 passes through,
// control characters become escapes as in Python's json.dumps; invalid UTF-8 becomes U+FFFD).
std::string json_quote(std::string_view s);
void append_json_quoted(std::string& out, std::string_view s);

}  // namespace bb::text
