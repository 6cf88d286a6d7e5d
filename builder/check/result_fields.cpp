// Flattening a committed result into numeric fields with units (see result_fields.hpp).
#include "check/result_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "calc/json.hpp"

namespace bb::check {
namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool ends_with_word(std::string_view key, std::string_view w) {
  return key == w || (key.size() > w.size() && key.ends_with(w) && key[key.size() - w.size() - 1] == '_');
}

// A number written as a string (`"165.2"`, an exact fraction `"1152928368/62975"`), else nothing.
std::optional<double> number_in_string(const std::string& s) {
  auto whole = [](const std::string& t) -> std::optional<double> {
    if (t.empty() || !(std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-')) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  const auto slash = s.find('/');
  if (slash == std::string::npos) return whole(s);
  auto p = whole(s.substr(0, slash)), q = whole(s.substr(slash + 1));
  if (!p || !q || *q == 0) return std::nullopt;
  return *p / *q;
}

// `{"numerator": p, "denominator": q}`: the exact fraction p/q.
std::optional<double> fraction(const Json& v) {
  if (!v.is_object() || v.size() != 2 || !v.contains("numerator") || !v.contains("denominator"))
    return std::nullopt;
  const Json &p = v["numerator"], &q = v["denominator"];
  if (!p.is_number() || !q.is_number() || q.get<double>() == 0) return std::nullopt;
  return p.get<double>() / q.get<double>();
}

// The labels an object gives the fields inside it: its text values that read as names (at most four
// words, not only digits: "A100 80GB SXM", "m4-max", not a note in a sentence), each folded with the
// shorter names it begins with that a sentence may use ("a100", "a10080gb"), added to those of the
// objects around it.
std::string row_of(const Json& object, const std::string& outer) {
  std::string row = outer;
  for (const auto& [k, child] : object.items()) {
    if (!child.is_string()) continue;
    const std::string& text = child.get_ref<const std::string&>();
    if (text.size() > 64) continue;
    std::vector<std::string> prefixes;  // folded, at each word's end
    std::string folded;
    bool in_word = false;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      const unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
      const bool word = c >= 0x80 || std::isalnum(c);
      if (word) folded += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      if (in_word && !word) prefixes.push_back(folded);
      in_word = word;
    }
    if (prefixes.empty() || prefixes.size() > 4) continue;
    for (const auto& p : prefixes)
      if (p.size() >= 4 && p.find_first_not_of("0123456789") != std::string::npos) row += p + "\n";
  }
  return row;
}

// `unit` is what the nearest enclosing key that names a unit says (`"boundaries_ns": {"pdl_chain": 366}`);
// `row` the labels of the objects around `v` (the file's own top level names no row).
void flatten(const Json& v, const std::string& pointer, const std::string& key, const KeyUnit& enclosing,
             const std::string& row, ResultFile& out) {
  KeyUnit unit = dim_of_key(key);
  const bool inherited = unit.dim == Dim::Count && enclosing.dim != Dim::Count;
  if (inherited) unit = enclosing;
  std::optional<double> value;
  if (auto f = fraction(v)) {
    value = f;
  } else if (v.is_object()) {
    const std::string inner = pointer.empty() ? row : row_of(v, row);
    for (const auto& [k, child] : v.items())
      if (k != "schema_version") flatten(child, pointer + "/" + calc::pointer_token(k), k, unit, inner, out);
  } else if (v.is_array()) {
    size_t i = 0;
    // A list's items are named by the list's key.
    for (const auto& child : v) flatten(child, pointer + "/" + std::to_string(i++), key, enclosing, row, out);
  } else if (v.is_number()) {
    value = v.get<double>();
  } else if (v.is_string()) {
    value = number_in_string(v.get<std::string>());
  }
  if (value) out.fields.push_back({pointer, *value * unit.scale, unit.dim, unit.per, inherited, *value, row});
}

// The unit a key ends with (`…_bytes`, `…_gib`, `…_ns`, `…_ghz`), or Count.
KeyUnit unit_word(const std::string& key, double prefix) {
  struct Word {
    std::string_view word;
    Dim dim;
    double scale;
  };
  static constexpr Word words[] = {
      {"bytes", Dim::Bytes, 1},
      {"byte", Dim::Bytes, 1},
      {"kb", Dim::Bytes, 1e3},
      {"mb", Dim::Bytes, 1e6},
      {"gb", Dim::Bytes, 1e9},
      {"tb", Dim::Bytes, 1e12},
      {"kib", Dim::Bytes, 1024.0},
      {"mib", Dim::Bytes, 1048576.0},
      {"gib", Dim::Bytes, 1073741824.0},
      {"tib", Dim::Bytes, 1099511627776.0},
      {"seconds", Dim::Seconds, 1},
      {"second", Dim::Seconds, 1},
      {"milliseconds", Dim::Seconds, 1e-3},
      {"microseconds", Dim::Seconds, 1e-6},
      {"nanoseconds", Dim::Seconds, 1e-9},
      {"ms", Dim::Seconds, 1e-3},
      {"us", Dim::Seconds, 1e-6},
      {"ns", Dim::Seconds, 1e-9},
      {"flops", Dim::Flops, 1},
      {"flop", Dim::Flops, 1},
      {"gflops", Dim::Flops, 1e9},
      {"tflops", Dim::Flops, 1e12},
      {"pflops", Dim::Flops, 1e15},
      {"tokens", Dim::Tokens, 1},
      {"watts", Dim::Watts, 1},
      {"w", Dim::Watts, 1},
      {"kw", Dim::Watts, 1e3},
      {"hz", Dim::Hertz, 1},
      {"mhz", Dim::Hertz, 1e6},
      {"ghz", Dim::Hertz, 1e9},
  };
  for (const auto& w : words)
    if (ends_with_word(key, w.word)) return {w.dim, w.scale * prefix, false};
  return {};
}

}  // namespace

std::string row_label(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))
      out += static_cast<char>(c);
    else if (c >= 'A' && c <= 'Z')
      out += static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

KeyUnit dim_of_key(const std::string& raw) {
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
    // The unit before `_per_`: `bandwidth_gb_per_second` is 10⁹ bytes/s, `tflops_per_second` 10¹² FLOP/s.
    const KeyUnit over = unit_word(key.substr(0, key.find("_per_")), prefix);
    if (over.dim == Dim::Bytes) return {Dim::ByteRate, over.scale};
    if (over.dim == Dim::Flops) return {Dim::FlopRate, over.scale};
    if (over.dim == Dim::Tokens) return {Dim::TokenRate, over.scale};
    if (has("token")) return {Dim::TokenRate, prefix};
    if (has("flop") || has("ops")) return {Dim::FlopRate, prefix};
    if (has("bit") && !has("byte")) return {Dim::ByteRate, prefix / 8};
    if (has("byte") || has("bandwidth")) return {Dim::ByteRate, prefix};
    return {};
  }
  if (key.starts_with("per_")) return {};
  // A unit over something else (`history_bytes_per_token`, `flops_per_sm_cycle`, `flops_per_byte`: the
  // words after `_per_` are the denominator) is that unit per thing. A unit word that ends the key
  // past its `_per_` words is the key's own: `read_once_per_operator_bytes` is bytes.
  const auto per = key.rfind("_per_");
  const bool denominator_last = per != std::string::npos && key.find('_', per + 5) == std::string::npos;
  if (per == std::string::npos || !denominator_last) {
    if (KeyUnit own = unit_word(key, prefix); own.dim != Dim::Count) return own;
  }
  if (per == std::string::npos) return {};
  KeyUnit over = unit_word(key.substr(0, key.find("_per_")), prefix);
  over.per = over.dim != Dim::Count;
  return over;
}

ResultFiles::ResultFiles(fs::path book_root, fs::path calculations)
    : root_(std::move(book_root)), calculations_(std::move(calculations)) {}

const ResultFile* ResultFiles::get(const std::string& name) {
  auto [it, fresh] = files_.try_emplace(name);
  if (fresh) {
    const fs::path file = calculations_ / name;
    std::ifstream in(file, std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      Json doc = Json::parse(ss.str(), nullptr, false);
      if (!doc.is_discarded()) {
        ResultFile rf;
        rf.path = file.lexically_relative(root_).generic_string();
        rf.name = name;
        flatten(doc, "", "", KeyUnit{}, "", rf);
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
