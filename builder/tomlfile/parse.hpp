// Every TOML file bookbuild reads (book.toml, chart specs, language files) goes through here: a book's
// files are untrusted (pull requests from forks are built), and toml++ as Debian ships it has input on
// which it reaches undefined behaviour. The guard finds that input first and makes it a located error;
// then toml++ parses, its errors located too. No TOML is parsed anywhere else (the layout test checks).
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace bb::tomlfile {

struct Hazard {
  int line = 0, col = 0;
  std::string message;
};

// Where toml++ (3.x as Debian ships it) would read a character through
// `impl::is_non_ascii_horizontal_whitespace`, whose table has no case for U+00A1–U+0499 and
// U+FC06–U+FEFE (the first and last of its 64 blocks) and reaches
// `TOML_UNREACHABLE` (undefined behaviour; found by fuzz/fuzz_config.cpp with `[Ń = …`): outside
// quoted strings and comments, and in a multi-line basic string right after a backslash or after the
// whitespace that follows a line-ending backslash. Outside strings and comments any non-ASCII
// character is refused (TOML keys and non-string values are ASCII); in those strings only the
// characters the table lacks. Returns the line, column and message of the first, if any.
std::optional<Hazard> reader_hazard(std::string_view text);

// A parsed file, or where and why it is not one (`error` empty on success).
struct Parsed {
  toml::table table;
  int line = 0, col = 0;
  std::string error;
};

// What to do about a toml++ error `description` at column `col` of `line` (the line's text): the
// mistakes a new author makes, named with their fix (`lang = zh-Hans` → write lang = "zh-Hans").
std::string hint(std::string_view description, std::string_view line, int col);

// `text` read from `file` (named in toml++'s source regions): the guard, then toml++. A toml++ error
// ends with a hint (above).
Parsed parse(std::string_view text, const std::filesystem::path& file);

}  // namespace bb::tomlfile
