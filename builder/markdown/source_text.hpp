// A manuscript's bytes before parsing: encoding checks with located errors.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "diag/diagnostics.hpp"

namespace bb::markdown {

// Replaces invalid UTF-8 with U+FFFD, reporting each place; drops a leading byte order mark.
std::string checked_utf8(std::string_view in, const std::filesystem::path& path, Diagnostics& diags);

}  // namespace bb::markdown
