// A book's bibliography: the entries of its BibTeX (.bib) and CSL-JSON (.json) files, read as
// untrusted input (bounded in size and nesting; every syntax error a located diagnostic), with the
// fields a citation style needs, as plain UTF-8 (docs/manuscripts.md, "Citations").
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::bib {

// One person: "Smith, John" and "John Smith" both give family "Smith", given "John". An
// organisation written in braces ("{World Health Organization}") is all family.
struct Name {
  std::string family, given;
};

struct Entry {
  std::string key;   // as cited: `@smith2020`
  std::string type;  // BibTeX's entry type in lower case ("article", "book", …) or CSL's type
  std::vector<Name> authors;
  bool more_authors = false;  // BibTeX's `and others`
  std::vector<Name> editors;
  // Every other field, by lower-case BibTeX name ("title", "journal", "booktitle", "year",
  // "volume", "number", "pages", "publisher", "institution", "url", "doi", "note", …), as plain text.
  std::map<std::string, std::string> fields;
  SourceLoc loc;  // where the entry starts in its file

  [[nodiscard]] const std::string& field(std::string_view name) const;
};

// Limits for a bibliography file (docs/security.md): what a real one never comes near.
inline constexpr std::size_t kMaxBibliographyBytes = std::size_t{8} << 20;
inline constexpr int kMaxBraceDepth = 32;
inline constexpr std::size_t kMaxEntries = 50000;

struct Bibliography {
  std::vector<Entry> entries;
  std::map<std::string, std::size_t, std::less<>> index;  // key → entries[i]
  std::vector<std::filesystem::path> files;               // as read, absolute

  [[nodiscard]] const Entry* find(std::string_view key) const;
  [[nodiscard]] std::vector<std::string> keys() const;
  // Adds `e`; a key already there is an error at `e`'s place, and the first entry stays.
  void add(Entry e, Diagnostics& diags);
};

// The entries of BibTeX text `text` read from `path`: `@type{key, field = value, …}` with braces or
// quotes, `@string` macros, `#` concatenation, LaTeX accents and escapes, names separated by `and`.
std::vector<Entry> parse_bibtex(std::string_view text, const std::filesystem::path& path, Diagnostics& diags);

// The entries of CSL-JSON text (an array of items with `id`, `type`, `author`, `issued`, …).
std::vector<Entry> parse_csl_json(std::string_view text, const std::filesystem::path& path,
                                  Diagnostics& diags);

// Reads `file` (already confined to the book) by its extension, `.bib` or `.json`, into `into`.
void read_bibliography_file(const std::filesystem::path& file, Bibliography& into, Diagnostics& diags);

}  // namespace bb::bib
