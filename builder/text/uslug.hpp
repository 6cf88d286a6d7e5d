// The heading identifiers MkDocs gives with `toc: slugify: pymdownx.slugs.uslugify` (the real book's
// site), so that every address readers saved from that site still finds its heading.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace bb::text {

// pymdownx.slugs.uslugify(text, "-"): NFC; HTML tags removed; surrounding white space stripped; full
// lower case; every character that is not a word character (a letter or number of any script, or
// `_`), `-` or an ASCII space removed; each ASCII space becomes `-`.
// "4.1 从模型计算认识加速器" → "41-从模型计算认识加速器".
std::string uslugify(std::string_view heading);

// Python-Markdown's toc `unique`: an id already in `used` (or an empty one) gets `_1`, and an id
// already ending in `_N` counts on to `_N+1`, until it is free. The result is added to `used`.
std::string unique_mkdocs_id(std::string id, std::set<std::string>& used);

}  // namespace bb::text
