// `bookbuild check epub`: opens an EPUB and checks what reading systems rely on, without Java:
// the container rules, well-formed XHTML (libxml2), a manifest that matches the archive, and links
// (`href#fragment`, `src`) that resolve inside it, and SVG entries (scripts declared, references inside
// the container).
#pragma once

#include <filesystem>
#include <string>

#include "diag/diagnostics.hpp"

namespace bb::check {

// Checks the EPUB at `file`. Problems are reported at `<file>/<entry>:line`.
void check_epub(const std::filesystem::path& file, Diagnostics& diags);

// The same on the bytes of an archive; `name` is the path problems are reported under.
void check_epub_bytes(std::string bytes, const std::filesystem::path& name, Diagnostics& diags);

}  // namespace bb::check
