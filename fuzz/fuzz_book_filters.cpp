// Fuzz target: the book filters' runner (builder/bookfilters/): any text as a Lua filter over any
// Markdown chapter, run over two chapters one after the other, so that the second takes the first's
// pooled state. Whatever the filter does — keep elements past their call or chapter, read or write
// their contents late, give back stubs twice or changed, loop or allocate without end — the run ends
// with a tree or located errors, never a crash (under ASan: no node read after it was moved or freed
// while an element still stood for it).
// Input: the filter, then a line `--[[markdown]]`, then the chapter; without that line the whole input
// is the filter, over a chapter of every element kind.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bookfilters/book_filters.hpp"
#include "doc/tree.hpp"
#include "markdown/frontend.hpp"

namespace {

using namespace bb;

constexpr std::string_view kSeparator = "\n--[[markdown]]\n";

constexpr std::string_view kChapter = R"(# Title {#ch:one}

A *short* paragraph with a [link](https://example.org "Example"), `code`, $x^2$ and **bold**.
A soft break, and a footnote.[^n]

> A quote with a [span]{.mark key=value}.

- one
- two

| a | b |
| - | - |
| 1 | 2 |

![A figure](img.png)

```python
print("hi")
```

[^n]: The note.
)";

bookfilters::Lookups lookups() {
  bookfilters::Lookups l;
  l.label = [](const std::string& name) -> std::optional<bookfilters::LabelInfo> {
    if (name != "sec:kv") return std::nullopt;
    return bookfilters::LabelInfo{"section", "ch02", "sec-2-3", "2.3", "The KV cache"};
  };
  l.calc = [](const std::string& expr, std::string& error) -> std::optional<bookfilters::CalcValue> {
    if (expr == "answer") return bookfilters::CalcValue{true, 42, 0};
    error = "unknown";
    return std::nullopt;
  };
  return l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t at = input.find(kSeparator);
  bookfilters::Program program;
  program.entry.name = "filters/fuzz.lua";
  program.code = std::string(input.substr(0, at));
  const std::string_view markdown =
      at == std::string_view::npos ? kChapter : input.substr(at + kSeparator.size());
  book::Edition edition;
  edition.id = "en";
  edition.lang = "en";
  // Small limits, so that an endless loop or a growing table ends in a fraction of a second.
  bookfilters::Limits limits;
  limits.memory = 8u << 20;
  limits.instructions = 2'000'000;
  const bookfilters::Lookups book = lookups();
  for (int i = 0; i < 2; ++i) {
    Diagnostics diags;
    book::Chapter chapter{"ch0" + std::to_string(i + 1), i + 1, "/book/manuscripts/x.md",
                          markdown::parse(markdown, "/book/manuscripts/x.md", diags), "X"};
    bookfilters::Place place{"html", &edition, &chapter, "/book", book::FilterEntry::Stage::Resolved};
    bookfilters::run_filters({program}, chapter, place, book, diags, limits);
    (void)doc::dump(chapter.root);
  }
  return 0;
}
