// Reading stored result documents for recomputation (see stored_result.hpp).
#include "calc/stored_result.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>

#include "calc/error.hpp"
#include "inputs/file_io.hpp"
#include "text/digest.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

namespace {
std::string name_of(std::string_view where, std::string_view key) {
  return where.empty() ? std::string(key) : std::string(where) + "." + std::string(key);
}

const Json& member(const Json& doc, std::string_view key, std::string_view where) {
  if (!doc.is_object()) throw Error(std::string(where.empty() ? "the result" : where) + " must be an object");
  auto it = doc.find(std::string(key));
  if (it == doc.end()) throw Error(name_of(where, key) + " is missing");
  return *it;
}

// The file a provenance row names, when it is inside the calculations folder; empty when absent.
fs::path source_file(const Data& data, const std::string& file) {
  fs::path rel(file);
  if (file.empty() || rel.is_absolute() || file.find('\\') != std::string::npos)
    throw Error("sources: file '" + file + "' must be a relative path inside calculations/");
  for (const auto& part : rel)
    if (part == "..") throw Error("sources: file '" + file + "' leaves calculations/");
  fs::path p = data.root() / rel;
  std::error_code ec;
  if (!fs::exists(p, ec)) return {};
  // A symbolic link may not lead out of the book either.
  fs::path root = fs::weakly_canonical(data.root(), ec);
  fs::path real = fs::weakly_canonical(p, ec);
  auto [end, _] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  if (ec || end != root.end()) throw Error("sources: file '" + file + "' leaves calculations/");
  return p;
}
}  // namespace

Int stored_int(const Json& doc, std::string_view key, std::string_view where, Int minimum) {
  const Json& v = member(doc, key, where);
  const std::string name = name_of(where, key);
  if (!v.is_number_integer()) throw Error(name + " must be an integer");
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw Error(name + " is too large for a 64-bit integer");
  Int out = v.get<std::int64_t>();
  if (out < minimum) throw Error(name + " must be " + (minimum.value() == 0 ? "nonnegative" : "positive"));
  return out;
}

bool stored_bool(const Json& doc, std::string_view key, std::string_view where) {
  const Json& v = member(doc, key, where);
  if (!v.is_boolean()) throw Error(name_of(where, key) + " must be true or false");
  return v.get<bool>();
}

std::string stored_string(const Json& doc, std::string_view key, std::string_view where) {
  const Json& v = member(doc, key, where);
  if (!v.is_string()) throw Error(name_of(where, key) + " must be a string");
  return v.get<std::string>();
}

const Json& stored_object(const Json& doc, std::string_view key) {
  const Json& v = member(doc, key, "");
  if (!v.is_object()) throw Error(std::string(key) + " must be an object");
  return v;
}

const Json& stored_list(const Json& doc, std::string_view key) {
  const Json& v = member(doc, key, "");
  if (!v.is_array()) throw Error(std::string(key) + " must be a list");
  return v;
}

Json rehash_sources(const Data& data, const Json& rows) {
  if (!rows.is_array()) throw Error("sources must be a list");
  Json out = rows;
  for (auto& row : out) {
    if (!row.is_object() || !row.contains("file") || !row["file"].is_string()) continue;
    fs::path p = source_file(data, row["file"].get<std::string>());
    if (p.empty() || !row.contains("sha256")) continue;
    auto read = inputs::read_bounded(p, kMaxDataFileBytes);
    if (!read.ok()) throw Error(p.string() + ": " + inputs::read_problem(read, kMaxDataFileBytes));
    row["sha256"] = text::sha256_hex(read.bytes);
  }
  return out;
}

Json model_provenance(const Data& data, std::string_view model) {
  if (!fs::exists(data.root() / "configs" / "sources.lock.json")) return Json::array();
  return data.model_sources(model);
}

Json with_stored_prose(Json fresh, const Json& stored) {
  auto it = stored.find("assumptions");
  if (it == stored.end() || !it->is_array()) return fresh;
  for (const auto& line : *it)
    if (!line.is_string()) return fresh;
  fresh["assumptions"] = *it;
  return fresh;
}

}  // namespace bb::calc
