// The JSON form of a number diff (docs/diff.md, "JSON"): version 1. Keys are only ever added.
#include <map>

#include <nlohmann/json.hpp>

#include "diff/render.hpp"

namespace bb::diff {

std::string render_json(const Report& r, const Sides& sides) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["version"] = 1;
  j["base"] = {{"revision", sides.base}, {"commit", sides.base_commit}};
  j["head"] = {{"revision", sides.head}, {"commit", sides.head_commit}};
  j["source_edition"] = r.source_edition;
  j["editions"] = r.editions;
  std::map<std::string, int> per;
  for (const auto& e : r.editions) per[e] = 0;
  for (const auto& c : r.changes) ++per[c.edition];
  ordered_json by_edition = ordered_json::object();
  for (const auto& e : r.editions) by_edition[e] = per[e];
  j["summary"] = {{"changes", r.changes.size()}, {"by_edition", by_edition},
                  {"drift", r.drift.size()},     {"redraws", r.redraws.size()},
                  {"data_files", r.data.size()}, {"base_errors", r.base_errors},
                  {"head_errors", r.head_errors}};
  ordered_json changes = ordered_json::array();
  for (const auto& c : r.changes)
    changes.push_back({{"edition", c.edition},
                       {"chapter", c.chapter},
                       {"file", c.file},
                       {"line", c.line},
                       {"col", c.col},
                       {"kind", kind_name(c.kind)},
                       {"what", c.what},
                       {"before", c.before},
                       {"after", c.after},
                       {"relative", c.relative ? ordered_json(*c.relative) : ordered_json(nullptr)}});
  j["changes"] = std::move(changes);
  ordered_json drift = ordered_json::array();
  for (const auto& d : r.drift)
    drift.push_back(
        {{"edition", d.edition},
         {"chapter", d.chapter},
         {"file", d.file},
         {"line", d.line},
         {"col", d.col},
         {"text", d.text},
         {"source",
          {{"file", d.source_file}, {"line", d.source_line}, {"before", d.before}, {"after", d.after}}}});
  j["drift"] = std::move(drift);
  ordered_json redraws = ordered_json::array();
  for (const auto& d : r.redraws)
    redraws.push_back({{"edition", d.edition}, {"file", d.file}, {"line", d.line}, {"spec", d.spec}});
  j["redraws"] = std::move(redraws);
  ordered_json data = ordered_json::array();
  for (const auto& d : r.data) {
    ordered_json fields = ordered_json::array();
    for (const auto& f : d.fields)
      fields.push_back({{"pointer", f.pointer},
                        {"before", f.before},
                        {"after", f.after},
                        {"owner", f.owner},
                        {"moves", f.moves}});
    data.push_back(
        {{"file", d.file}, {"status", d.status}, {"fields", fields}, {"more_fields", d.more_fields}});
  }
  j["data"] = std::move(data);
  // Manuscripts are untrusted: a byte that is not UTF-8 is replaced, never a failure.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace bb::diff
