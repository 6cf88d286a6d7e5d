// The Content-Security-Policy the dev server sends with every file of the site, so that nothing in a
// page or a figure opened on its own runs a script the site did not write: scripts from the site's
// own files and the page's inline scripts by their SHA-256 only (no event-handler attributes, no
// javascript: URLs, nothing from elsewhere), no plugins, no framing by other sites.
#pragma once

#include <string>
#include <string_view>

namespace bb::site {

// The policy for a response of media type `type` with body `body`: an HTML page's inline <script>
// elements are allowed by their hash.
std::string content_security_policy(std::string_view type, std::string_view body);

// The header line ("Content-Security-Policy: …\r\n").
std::string content_security_policy_header(std::string_view type, std::string_view body);

}  // namespace bb::site
