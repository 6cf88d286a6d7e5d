// `[[filter]]` tables of book.toml: where each book filter is, and where it runs.
#include "book/filter_config.hpp"
#include "book/toml_read.hpp"

#include <algorithm>

#include "book/paths.hpp"
#include "inputs/inputs.hpp"
#include "text/suggest.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

// A list of strings, each one of `allowed` (when given).
std::vector<std::string> names(const toml::table& t, std::string_view key,
                               const std::vector<std::string>& allowed, const fs::path& file,
                               Diagnostics& diags) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const auto* arr = n->as_array();
  if (!arr) {
    diags.error(toml_place(file, n), "`" + std::string(key) + "` must be an array of strings");
    return out;
  }
  for (const auto& item : *arr) {
    auto v = item.value<std::string>();
    if (!v || (!allowed.empty() && std::find(allowed.begin(), allowed.end(), *v) == allowed.end())) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
      diags.error(toml_place(file, &item), "`" + std::string(key) + "` holds " +
                                               (allowed.empty() ? std::string("strings") : "only " + list));
      continue;
    }
    out.push_back(*v);
  }
  return out;
}

}  // namespace

void read_filter_entries(const toml::table& doc, Config& cfg, Diagnostics& diags) {
  const toml::node* node = doc.get("filter");
  if (!node) return;
  const fs::path& file = cfg.config_file;
  const auto* list = node->as_array();
  if (!list) {
    diags.error(toml_place(file, node), "filters are `[[filter]]` tables");
    return;
  }
  std::vector<std::string> edition_ids;
  for (const auto& e : cfg.editions) edition_ids.push_back(e.id);
  PathGuard guard(cfg.root);
  for (const auto& item : *list) {
    const auto* t = item.as_table();
    if (!t) {
      diags.error(toml_place(file, &item), "[[filter]] must be a table");
      continue;
    }
    for (const auto& [k, v] : *t)
      if (k != "path" && k != "outputs" && k != "editions" && k != "stage")
        diags.warning(toml_place(file, &v),
                      "unknown key `" + std::string(k.str()) + "` in [[filter]]" +
                          text::did_you_mean(k.str(), {"path", "outputs", "editions", "stage"}));
    FilterEntry f;
    f.loc = toml_place(file, &item);
    f.name = t->get("path") ? t->get("path")->value<std::string>().value_or("") : "";
    // Filters are the book's own code, kept together where a reviewer looks for them.
    const fs::path relative = fs::path(f.name).lexically_normal();
    if (f.name.empty() || relative.is_absolute() || *relative.begin() != "filters" ||
        relative.extension() != ".lua") {
      diags.error(toml_place(file, t->get("path")),
                  "[[filter]] needs a `path` such as \"filters/glossary.lua\"");
      continue;
    }
    const auto confined = guard.confine(cfg.root / relative);
    inputs::note_file(cfg.root / relative);
    if (!confined.ok()) {
      diags.error(toml_place(file, t->get("path")), "filter `" + f.name + "` " + confined.error);
      continue;
    }
    if (!fs::is_regular_file(confined.path)) {
      diags.error(toml_place(file, t->get("path")), "filter `" + f.name + "` does not exist");
      continue;
    }
    f.path = confined.path;
    f.formats = names(*t, "outputs", {"html", "epub", "latex", "check"}, file, diags);
    f.editions = names(*t, "editions", edition_ids, file, diags);
    if (const toml::node* s = t->get("stage")) {
      const auto v = s->value<std::string>();
      if (v == "parsed")
        f.stage = FilterEntry::Stage::Parsed;
      else if (v != "resolved")
        diags.error(toml_place(file, s), "`stage` is \"parsed\" or \"resolved\"");
    }
    cfg.filters.push_back(std::move(f));
  }
}

}  // namespace bb::book
