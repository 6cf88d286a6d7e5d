// The search index kept between runs: an edition's index is stored in the output folder's cache with
// a key over everything it is built from, and read back while that key is unchanged.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "search/search_index.hpp"

namespace bb::search {

// An index as build_search_index gives it.
struct BuiltIndex {
  std::map<std::string, std::string> files;  // file name → bytes, as written under <edition>/search/
  SearchStats stats;
};

// SHA-256 (hex) over the index format, the libraries that shape its bytes (ICU's folding, zlib's
// deflate), `tool` (bookbuild's version and commit), the language and every section, fields
// length-prefixed.
std::string search_index_key(const std::vector<SearchSection>& sections, const std::string& lang,
                             std::string_view tool);

// The entry of `edition` in the cache folder `dir` (<out>/.cache/search) when it was stored under
// `key`; nullopt when there is none, it has another key, or it is not a well-formed entry (the folder
// is the user's to edit or damage: a bad entry is rebuilt, never trusted).
std::optional<BuiltIndex> load_search_index(const std::filesystem::path& dir, const std::string& edition,
                                            const std::string& key);

// Stores the entry (written aside and renamed; replaces the edition's previous entry). Failing to
// write the cache is not an error of the build.
void store_search_index(const std::filesystem::path& dir, const std::string& edition, const std::string& key,
                        const BuiltIndex& index);

}  // namespace bb::search
