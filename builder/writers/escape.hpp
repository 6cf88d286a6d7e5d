// Escaping shared by the writers: one place that knows each format's special characters.
#pragma once

#include <string>
#include <string_view>

#include "doc/ids.hpp"
#include "text/escape.hpp"
#include "text/url.hpp"

namespace bb::writers {

// XML escaping, the tree's id rule and URL decoding, which the writers use with their own escaping.
using doc::sanitize_id;
using text::append_escaped_xml;
using text::escape_xml;
using text::percent_decode;

// LaTeX text for XeLaTeX (UTF-8 passes through): the ten specials \ { } $ & # ^ _ % ~ become
// commands, and `--`, `"`, `` ` `` and `<<` (which TeX ligatures would turn into dashes, curly
// quotes and guillemets) are written so that print shows what the manuscript typed, as HTML does.
std::string escape_latex(std::string_view s);
void append_escaped_latex(std::string& out, std::string_view s);

// A URL as the first argument of \href or the argument of \url, safe even when that command sits in
// another command's argument (a footnote, a caption): `\`, `%`, `#`, `{`, `}` and `~` are escaped
// the way hyperref expects, and `^` is percent-encoded.
std::string escape_latex_url(std::string_view url);

// A \label/\hyperref key: ASCII letters, digits and `-:._` are kept; every other byte is written as
// `+hh`, so that distinct ids stay distinct and the key is safe in PDF destinations.
std::string latex_label(std::string_view key);

}  // namespace bb::writers
