// The site's search index: built per edition from the resolved document trees, queried by plain
// JavaScript in the browser (website/search.js) with no server and no network. The format and the
// tokenisation rule shared with the JavaScript are described in docs/search.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "doc/tree.hpp"
#include "search/tokenizer.hpp"

namespace bb::search {

// One searchable unit: a section of a chapter (the text from one heading to the next).
struct SearchSection {
  std::string page;     // page URL relative to the edition's root ("ch04.html")
  std::string anchor;   // the section's id ("sec-4-2"); empty for the top of the page
  std::string title;    // the section heading as plain text ("4.2 计算单元")
  std::string chapter;  // the chapter title ("第 4 章 加速器架构")
  std::string text;     // the section's plain text (math as TeX, no markup)
};

struct SearchStats {
  std::size_t sections = 0;
  std::size_t index_bytes = 0;  // all files of the index together
  // An upper bound of what a reader downloads for a one-token query and its first page of results:
  // docs.json + the largest postings shard + the `kResultsPerPage` largest text chunks.
  std::size_t largest_query_bytes = 0;
  std::size_t files = 0;
};

// Results shown per page by website/search.js; the text chunks of one page are what a query fetches.
inline constexpr std::size_t kResultsPerPage = 10;

// Sizes the files aim at. Smaller means less to download per query and more files.
struct SearchIndexOptions {
  std::size_t shard_bytes = 8 * 1024;  // a postings shard (one may exceed it: one key is never split)
  std::size_t chunk_bytes = 6 * 1024;  // a text chunk (a section is never split)
};

// Writes the index of one edition into `dir` (e.g. build/site/en/search/). `lang` is the BCP 47
// language: Chinese text is indexed by overlapping character bigrams, other scripts by words.
SearchStats write_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               const std::filesystem::path& dir);
SearchStats write_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               const std::filesystem::path& dir, const SearchIndexOptions& options);

// The same index in memory: file name (relative to the index folder) → bytes.
SearchStats build_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               std::map<std::string, std::string>& files,
                               const SearchIndexOptions& options = SearchIndexOptions{});

// The sections of one chapter: the top of the page (up to the first level-2 heading) and one per
// level-2 or level-3 heading. Text of blocks is joined by spaces; code and math are kept as text.
std::vector<SearchSection> search_sections(const doc::Node& chapter_root, const std::string& page,
                                           const std::string& chapter_title);

}  // namespace bb::search
