// Code highlighting at build time: a code block's text split into classified tokens by GNU
// Source-highlight's language definitions, for every writer to render its own way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::highlight {

// A run of code with one meaning. `kind` is Source-highlight's element name ("keyword", "string",
// "comment", "number", "type", "function", "preproc", "symbol", ...), empty for plain text; `text` is
// the code as written, newlines included.
struct Token {
  std::string kind;
  std::string text;
};

// The tokens of `code` in `language` (a fence's info string: "cpp", "python", "sh", "c++", "js"; only
// its first word counts; the languages are those of Source-highlight's lang.map). nullopt when
// Source-highlight has no definition for the language, its definition cannot be loaded, or the highlighting
// module (bookbuild_highlighter.so, loaded on the first call) cannot be loaded: the block is then shown as
// plain text.
// Thread-safe. With a cache in use (use_cache), a block highlighted by an earlier run with the same
// Source-highlight installation is answered from there, and the module is not loaded for it.
std::optional<std::vector<Token>> tokens(std::string_view language, std::string_view code);

// Whether tokens() knows `language` (a fence's info string, its first word; aliases such as `cuda` and
// `text` included): false only when Source-highlight's lang.map was read and has no such name.
bool known_language(std::string_view language);

// Makes tokens() answer from, and remember in, the cache file `file` (<out>/.cache/highlight.bin), read
// on the first code block; an empty path stops using one. A missing, damaged or outdated file is the same
// as an empty cache (see docs/pipeline.md). Not to be called while blocks are being highlighted.
void use_cache(const std::filesystem::path& file);

// After a successful build: writes the cache file back (atomically), with the blocks this build used and
// those recent builds did, when it changed. A file that cannot be written is left alone: the cache only
// ever saves time. Nothing without a cache in use or when no code block was highlighted.
void save_cache();

// The palette entry a token kind is drawn with, shared by every writer so that the site, the EPUB and
// the PDF colour code alike: "keyword", "type", "classname", "string", "regexp", "comment", "number",
// "preproc", "symbol", "cbracket", "function", "variable", "property"; nullptr for plain text.
const char* style_of(const std::string& kind);

}  // namespace bb::highlight
