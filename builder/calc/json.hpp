// The calc library's result documents: nlohmann::ordered_json trees (field order preserved), written
// exactly as the reference tool writes them (Python json.dumps, indent 2, floats as repr).
#pragma once

#include <cstddef>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace bb::calc {

using Json = nlohmann::ordered_json;

// json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n".
std::string dump_json(const Json& value);
// One scalar as Python would print it inside JSON (42, 1e-05, true, null, "text").
std::string dump_scalar(const Json& value);

// Reads a JSON file; a missing file or a syntax error is a bb::calc::Error naming the path.
// The most of a calculations file that is read (a book's calculations are untrusted).
inline constexpr std::size_t kMaxDataFileBytes = std::size_t{256} << 20;

Json read_json_file(const std::filesystem::path& path);

// One key as a token of a JSON Pointer (RFC 6901): `~` is written `~0` and `/` `~1`. The one escape
// every pointer the tool prints or compares is made with (recomputed fields, cited fields, the lock).
std::string pointer_token(const std::string& key);

}  // namespace bb::calc
