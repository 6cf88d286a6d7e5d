// The site's search index: built per edition from the resolved document trees, queried by plain
// JavaScript in the browser (website/search.js) with no server and no network.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace bb::site {

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
  std::size_t index_bytes = 0;          // all files of the index together
  std::size_t largest_query_bytes = 0;  // the most a reader downloads for a typical one-token query
};

// Writes the index of one edition into `dir` (e.g. build/site/en/search/). `lang` is the BCP 47
// language: Chinese text is indexed by overlapping character bigrams, other scripts by words.
SearchStats write_search_index(const std::vector<SearchSection>& sections, const std::string& lang,
                               const std::filesystem::path& dir);

}  // namespace bb::site
