// The identifiers other Markdown tools give headings automatically, so that a manuscript written for
// them (`[see](#memory-budget)`, `[见](#11-一节)`) keeps working: GitHub's (also GitLab's and
// markdown-it-anchor's) and Pandoc's `auto_identifiers`.
#pragma once

#include <string>
#include <string_view>

namespace bb::text {

// GitHub: lower case; every character that is not a letter, a digit, a mark, `-`, `_` or a space is
// removed; spaces become `-`. "1.1 Memory Budget (KV)" → "11-memory-budget-kv".
std::string github_slug(std::string_view heading);

// Pandoc: lower case; every character that is not a letter, a digit, `_`, `-` or `.` removed; white
// space runs become one `-`; everything before the first letter removed; "section" if nothing
// remains. "1.1 Memory Budget (KV)" → "memory-budget-kv".
std::string pandoc_slug(std::string_view heading);

// Both tools number a repeated identifier by adding "-1", "-2", ... to it; callers keep that count
// per chapter.

}  // namespace bb::text
