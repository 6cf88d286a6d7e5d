// A manuscript's bytes before parsing: encoding checks with located errors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "diag/diagnostics.hpp"

namespace bb::markdown {

// Replaces invalid UTF-8 and NUL bytes with U+FFFD, reporting each place (the first NUL with their
// count); drops a leading byte order mark. A UTF-16 or UTF-32 file is one error and gives nullopt.
std::optional<std::string> checked_utf8(std::string_view in, const std::filesystem::path& path,
                                        Diagnostics& diags);

}  // namespace bb::markdown
