// The heading ids the real book's MkDocs site gave (toc + pymdownx.slugs.uslugify), kept as aliases
// so that addresses saved from that site still reach their heading (docs/configuration.md, "Old
// addresses").
#pragma once

#include <map>
#include <string>

#include "doc/tree.hpp"

namespace bb::filters {

// Sets attr "mkdocs-id" on every heading of a chapter's tree, from the heading as written (before
// numbering moves typed numbers out of it), deduplicated as Python-Markdown's toc does. A heading
// that already has it keeps it.
void mark_mkdocs_ids(doc::Node& root);

// The heading's text as Python-Markdown's toc reads it (`itertext`): text, code, the TeX of math
// between `\(` `\)`, footnote references as their number (`footnote_numbers`: key → number).
std::string mkdocs_heading_text(const doc::Node& heading, const std::map<std::string, int>& footnote_numbers);

}  // namespace bb::filters
