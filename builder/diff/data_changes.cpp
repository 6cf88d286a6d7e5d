// The calculation data that changed between two revisions (diff/compare.hpp): JSON files compared value
// by value (JSON Pointers), other files as a whole; each changed value named by its owner (the
// scenario or result it belongs to) and counted against the numbers of the diff that name that owner.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "diff/compare.hpp"

namespace bb::diff {

namespace {

using nlohmann::json;

// A key as one token of a JSON Pointer (RFC 6901): `~` → `~0`, `/` → `~1`.
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// Every leaf of a JSON document: pointer → (value as JSON, owner). The owner is the `id` of the
// nearest object around the leaf that has one (a scenario), else `fallback`.
void flatten(const json& j, const std::string& pointer, const std::string& owner,
             std::map<std::string, std::pair<std::string, std::string>>& out) {
  if (j.is_object()) {
    const auto id = j.find("id");
    const std::string own = id != j.end() && id->is_string() ? id->get<std::string>() : owner;
    for (const auto& [k, v] : j.items()) flatten(v, pointer + "/" + pointer_token(k), own, out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], pointer + "/" + std::to_string(i), owner, out);
  } else {
    out[pointer] = {j.dump(), owner};
  }
}

// What a data file belongs to when no scenario says: results/<id>.json and configs/models/<m>/… name
// their result and model; any other file its own name.
std::string file_owner(const std::string& file) {
  const std::filesystem::path p(file);
  if (p.parent_path().filename() == "results") return file;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (*it == "models" && std::next(it) != p.end() && std::next(std::next(it)) != p.end())
      return std::next(it)->string();
  return p.stem().string();
}

bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Whether `text` names `owner` as a whole word (`model(qwen3-8b).x`, `qwen3-8b-decode.x`'s first word).
bool names(const std::string& text, const std::string& owner) {
  for (std::size_t at = text.find(owner); at != std::string::npos; at = text.find(owner, at + 1)) {
    const std::size_t end = at + owner.size();
    const bool before_ok = at == 0 || !token_char(text[at - 1]);
    const bool after_ok = end == text.size() || text[end] == '.' || !token_char(text[end]);
    if (before_ok && after_ok) return true;
  }
  return false;
}

int moves_of(const std::string& owner, const std::vector<Change>& changes) {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(), [&](const Change& c) {
    return c.kind != Kind::Typed && c.kind != Kind::Numbered && c.kind != Kind::CrossRef &&
           names(c.what, owner);
  }));
}

DataChange compare_file(const std::string& file, const std::string* before, const std::string* after,
                        const std::vector<Change>& changes) {
  DataChange d{file, !before ? "added" : !after ? "removed" : "changed", {}, 0};
  const std::string fallback = file_owner(file);
  std::map<std::string, std::pair<std::string, std::string>> b, a;
  const bool is_json = std::filesystem::path(file).extension() == ".json";
  const json jb = before && is_json ? json::parse(*before, nullptr, false) : json();
  const json ja = after && is_json ? json::parse(*after, nullptr, false) : json();
  if (!is_json || jb.is_discarded() || ja.is_discarded()) {
    d.fields.push_back({"", "", "", fallback, moves_of(fallback, changes)});
    return d;
  }
  if (before) flatten(jb, "", fallback, b);
  if (after) flatten(ja, "", fallback, a);
  std::vector<std::string> pointers;
  for (const auto& [p, v] : b)
    if (!a.contains(p) || a[p].first != v.first) pointers.push_back(p);
  for (const auto& [p, v] : a)
    if (!b.contains(p)) pointers.push_back(p);
  std::sort(pointers.begin(), pointers.end());
  for (const auto& p : pointers) {
    if (d.fields.size() >= kMaxFieldsListed) {
      ++d.more_fields;
      continue;
    }
    const auto ib = b.find(p), ia = a.find(p);
    const std::string owner = ia != a.end() ? ia->second.second : ib->second.second;
    d.fields.push_back({p, ib != b.end() ? ib->second.first : "", ia != a.end() ? ia->second.first : "",
                        owner, moves_of(owner, changes)});
  }
  return d;
}

}  // namespace

std::vector<DataChange> data_changes(const std::map<std::string, std::string>& before,
                                     const std::map<std::string, std::string>& after,
                                     const std::vector<Change>& changes) {
  std::vector<DataChange> out;
  for (const auto& [file, bytes] : before) {
    const auto it = after.find(file);
    if (it == after.end())
      out.push_back(compare_file(file, &bytes, nullptr, changes));
    else if (it->second != bytes)
      out.push_back(compare_file(file, &bytes, &it->second, changes));
    // A file rewritten with the same values (spacing, key order) changes no number.
    if (!out.empty() && out.back().file == file && out.back().status == "changed" &&
        out.back().fields.empty())
      out.pop_back();
  }
  for (const auto& [file, bytes] : after)
    if (!before.contains(file)) out.push_back(compare_file(file, nullptr, &bytes, changes));
  std::sort(out.begin(), out.end(), [](const DataChange& x, const DataChange& y) { return x.file < y.file; });
  return out;
}

}  // namespace bb::diff
