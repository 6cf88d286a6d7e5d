// Fuzz target: the search tokeniser (builder/site/search_index): folding and tokenising any bytes,
// valid UTF-8 or not, gives tokens that are themselves non-empty UTF-8.
#include <unicode/utf8.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "search/search_index.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  bb::search::fold(text);
  for (const auto& t : bb::search::tokenize(text)) {
    bb::fuzz::check(!t.text.empty());
    // Every token is well-formed UTF-8: the index is JSON and the browser decodes it.
    std::int32_t i = 0, n = static_cast<std::int32_t>(t.text.size());
    while (i < n) {
      UChar32 c;
      U8_NEXT(t.text.data(), i, n, c);
      bb::fuzz::check(c >= 0);
    }
  }
  return 0;
}
