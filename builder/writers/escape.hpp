// Escaping shared by the writers: one place that knows each format's special characters.
#pragma once

#include <string>
#include <string_view>

namespace bb::writers {

// Text content and attribute values for HTML5 and XHTML (&, <, >, " and ' are escaped).
std::string escape_xml(std::string_view s);
void append_escaped_xml(std::string& out, std::string_view s);

// An id usable in HTML, XHTML and as a URL fragment: keeps letters (any script), digits, `-`, `_`,
// `:` and `.`; everything else becomes `-`.
std::string sanitize_id(std::string_view s);

}  // namespace bb::writers
