// `check epub` with the W3C's epubcheck where it is installed (Debian's `epubcheck`, an executable
// jar run with `java -jar`): its messages become located diagnostics, so that `check epub` fails
// whenever epubcheck does. The checks of epub_check.hpp stay for machines without Java.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "diag/diagnostics.hpp"

namespace bb::check {

// The command that runs epubcheck (`epubcheck`, or `java -jar …/epubcheck.jar`), or nullopt when
// epubcheck or Java is not installed. BOOKBUILD_EPUBCHECK names another epubcheck (a jar or an
// executable); set to "" it turns epubcheck off.
std::optional<std::vector<std::string>> epubcheck_command();

// Runs epubcheck on `file` and reports its messages; false when it could not be run.
bool run_epubcheck(const std::vector<std::string>& command, const std::filesystem::path& file,
                   Diagnostics& diags);

// Reports epubcheck's JSON report (`--json -`) at `file`/<entry>:line:col; `exit_code` is epubcheck's:
// a failure without a message is an error too.
void report_epubcheck_json(std::string_view json, int exit_code, const std::filesystem::path& file,
                           Diagnostics& diags);

}  // namespace bb::check
