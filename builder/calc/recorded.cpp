// Reading a stored result's inputs back for a recompute (see recorded.hpp).
#include "calc/recorded.hpp"

#include "calc/calculations.hpp"
#include "calc/error.hpp"
#include "calc/reproduce.hpp"

namespace bb::calc {
namespace fs = std::filesystem;

const Json& recorded_scenario(const Json& stored) {
  if (!stored.is_object() || !stored.contains("scenario") || !stored["scenario"].is_object())
    throw Error("the result records no \"scenario\" object");
  return stored["scenario"];
}

Int positive_int(const Json& value, std::string_view what, bool allow_zero) {
  const std::string name(what);
  Int v;
  if (value.is_number_integer())
    v = value.get<std::int64_t>();
  else if (value.is_number_unsigned())
    throw Error(name + " is too large");
  else
    throw Error(name + " must be an integer, got " + value.dump());
  if (v.value() < 0 || (!allow_zero && v.value() == 0))
    throw Error(name + (allow_zero ? " must be >= 0" : " must be > 0") + ", got " + value.dump());
  return v;
}

const Json& member(const Json& object, std::string_view key, std::string_view what) {
  if (!object.is_object()) throw Error(std::string(what) + " must be an object");
  auto it = object.find(std::string(key));
  if (it == object.end()) throw Error(std::string(what) + " has no \"" + std::string(key) + "\"");
  return *it;
}

std::vector<Int> positive_int_list(const Json& value, std::string_view what, bool allow_zero) {
  if (!value.is_array()) throw Error(std::string(what) + " must be a list of integers");
  std::vector<Int> out;
  for (const auto& v : value) out.push_back(positive_int(v, what, allow_zero));
  return out;
}

namespace {

// The file inside the book for a path recorded relative to calculations/, or empty when it would
// leave the book (`../../etc/passwd`, an absolute path, a symlink pointing out).
fs::path inside_book(const Data& data, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute()) return {};
  const fs::path book = fs::weakly_canonical(data.root().parent_path());
  const fs::path file = fs::weakly_canonical(data.root() / path);
  auto rel = file.lexically_relative(book);
  if (rel.empty() || *rel.begin() == "..") return {};
  return file;
}

}  // namespace

fs::path require_input(const Data& data, const std::string& path) {
  fs::path file = inside_book(data, path);
  if (file.empty()) throw Error("input path leaves the book: " + path);
  if (!fs::is_regular_file(file)) throw MissingInput(path);
  return file;
}

Json rehashed_sources(const Data& data, const Json& recorded) {
  if (!recorded.is_array()) throw Error("the result's \"sources\" must be a list");
  Json out = Json::array();
  for (Json row : recorded) {
    if (row.is_object() && row.contains("file") && row["file"].is_string() && row.contains("sha256")) {
      fs::path file = inside_book(data, row["file"].get<std::string>());
      if (!file.empty() && fs::is_regular_file(file)) row["sha256"] = sha256_file(file);
    }
    out.push_back(std::move(row));
  }
  return out;
}

Data recompute_data(const Data& data, const Json& stored, const std::string& model, const Json& other_rows) {
  Data view = data;
  if (fs::exists(data.root() / "configs" / "sources.lock.json")) return view;
  Json rows = Json::array();
  if (stored.contains("sources"))
    for (Json row : rehashed_sources(data, stored["sources"])) {
      if (!row.is_object()) continue;
      bool other = false;
      for (const auto& o : other_rows)
        other = other ||
                (o.is_object() && o.contains("file") && row.contains("file") && o["file"] == row["file"]);
      if (other) continue;
      row["model"] = model;
      rows.push_back(std::move(row));
    }
  view.set_sources_lock(Json{{"sources", rows}});
  return view;
}

}  // namespace bb::calc
