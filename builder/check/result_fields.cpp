// Flattening a committed result into numeric fields with units (see result_fields.hpp).
#include "check/result_fields.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace bb::check {
namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool ends_with_word(const std::string& key, std::string_view w) {
  return key == w || (key.size() > w.size() && key.ends_with(w) && key[key.size() - w.size() - 1] == '_');
}

// RFC 6901: `~` → `~0`, `/` → `~1`.
std::string escape_pointer(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

void flatten(const Json& v, const std::string& pointer, const std::string& key, ResultFile& out) {
  if (v.is_object()) {
    for (const auto& [k, child] : v.items())
      if (k != "schema_version" && k != "sources") flatten(child, pointer + "/" + escape_pointer(k), k, out);
  } else if (v.is_array()) {
    size_t i = 0;
    for (const auto& child : v) flatten(child, pointer + "/" + std::to_string(i++), key, out);
  } else if (v.is_number()) {
    auto [dim, scale] = dim_of_key(key);
    out.fields.push_back({pointer, v.get<double>() * scale, dim, v.get<double>()});
  }
}

}  // namespace

std::pair<Dim, double> dim_of_key(const std::string& raw) {
  const std::string key = lower(raw);
  auto has = [&](std::string_view w) { return key.find(w) != std::string::npos; };
  // A prefix word scales the unit: `tera_ops_per_second`, `giga_bytes`.
  double prefix = 1;
  if (has("peta_")) prefix = 1e15;
  if (has("tera_")) prefix = 1e12;
  if (has("giga_")) prefix = 1e9;
  if (has("mega_")) prefix = 1e6;
  if (has("kilo_")) prefix = 1e3;
  if (has("per_second") || ends_with_word(key, "per_s") || ends_with_word(key, "per_sec")) {
    if (has("token")) return {Dim::TokenRate, prefix};
    if (has("flop") || has("ops")) return {Dim::FlopRate, prefix};
    if (has("bit") && !has("byte")) return {Dim::ByteRate, prefix / 8};
    if (has("byte") || has("bandwidth")) return {Dim::ByteRate, prefix};
    return {Dim::Count, 1};
  }
  // Any other ratio (`flops_per_byte`, `bytes_per_token`: the last word is the denominator) is a plain
  // quantity; `read_once_per_operator_bytes` is still bytes.
  if (const auto last = key.rfind('_');
      last != std::string::npos && last >= 4 && key.compare(last - 4, 5, "_per_") == 0)
    return {Dim::Count, 1};
  if (key.starts_with("per_") && key.find('_', 4) == std::string::npos) return {Dim::Count, 1};
  if (prefix != 1 && (ends_with_word(key, "bytes") || ends_with_word(key, "byte")))
    return {Dim::Bytes, prefix};
  if (ends_with_word(key, "bytes") || ends_with_word(key, "byte")) return {Dim::Bytes, 1};
  if (ends_with_word(key, "gb")) return {Dim::Bytes, 1e9};
  if (ends_with_word(key, "gib")) return {Dim::Bytes, 1073741824.0};
  if (ends_with_word(key, "seconds") || ends_with_word(key, "second")) return {Dim::Seconds, 1};
  if (ends_with_word(key, "ms")) return {Dim::Seconds, 1e-3};
  if (ends_with_word(key, "us")) return {Dim::Seconds, 1e-6};
  if (ends_with_word(key, "ns")) return {Dim::Seconds, 1e-9};
  if (ends_with_word(key, "flops") || ends_with_word(key, "flop")) return {Dim::Flops, 1};
  if (ends_with_word(key, "tokens")) return {Dim::Tokens, 1};
  if (ends_with_word(key, "watts") || ends_with_word(key, "w")) return {Dim::Watts, 1};
  return {Dim::Count, 1};
}

ResultFiles::ResultFiles(fs::path book_root, fs::path calculations)
    : root_(std::move(book_root)), calculations_(std::move(calculations)) {}

const ResultFile* ResultFiles::get(const std::string& name) {
  auto [it, fresh] = files_.try_emplace(name);
  if (fresh) {
    const fs::path file = calculations_ / "results" / (name + ".json");
    std::ifstream in(file, std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      Json doc = Json::parse(ss.str(), nullptr, false);
      if (!doc.is_discarded()) {
        ResultFile rf;
        rf.path = file.lexically_relative(root_).generic_string();
        flatten(doc, "", "", rf);
        it->second = std::move(rf);
      }
    }
  }
  return it->second ? &*it->second : nullptr;
}

void ResultFiles::put(const std::string& name, ResultFile file) {
  files_[name] = std::move(file);
}

}  // namespace bb::check
