// Writing a rendered site into its staged folder: generated files (hard-linked to the previous build's
// where unchanged) and copied ones, then the swap into place (output::StagedDir).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

namespace bb::site {

// Generated files (path relative to the site → content) into the staged folder `staged` of the site
// at `out`.
void write_generated(const std::map<std::string, std::string>& generated, const std::filesystem::path& out,
                     const std::filesystem::path& staged);
// Files copied from the book (path relative to the site → source), linked where the file system allows.
void write_copied(const std::map<std::string, std::filesystem::path>& copied,
                  const std::filesystem::path& staged);
// The HTML pages among generated files.
std::size_t count_pages(const std::map<std::string, std::string>& generated);

}  // namespace bb::site
