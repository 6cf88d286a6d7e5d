// `reproduce` and `verify-results`: regenerate every scenario's files with a hash manifest, and check them.
#pragma once

#include <string>
#include <vector>

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// Lowercase hex sha256 of a byte string / a file.
std::string sha256_hex(const std::string& bytes);
std::string sha256_file(const std::filesystem::path& path);

// Writes results/<id>.json and <id>.md (and <id>.csv when there are operators) for every scenario,
// then results/manifest.json. Returns a short report document.
Json reproduce(const Data& data);

// Re-hashes inputs and artifacts against the manifest and recomputes every scenario, comparing bytes.
// Returns the report; report["summary"]["ok"] says whether everything matched.
Json verify_results(const Data& data);

}  // namespace bb::calc
