// book.toml's `[site]` table: the old addresses a book keeps (redirects, MkDocs heading ids).
#include "book/site_config.hpp"
#include "book/toml_read.hpp"

#include "book/paths.hpp"
#include "text/suggest.hpp"

namespace bb::book {

namespace {

// "ch04" names the source edition's chapter, "en/ch04" another edition's, "en/" an edition's home.
void read_redirect(const std::string& from, const toml::node& value, const std::filesystem::path& file,
                   Config& cfg, Diagnostics& diags) {
  const SourceLoc loc = toml_place(file, &value);
  const auto target = value.value<std::string>();
  if (!target) {
    diags.error(loc, "redirect `" + from + "` must name a chapter, such as \"ch04\" or \"en/ch04\"");
    return;
  }
  if (from.empty() || !is_safe_relative(from) || from.back() == '/' || from.find('#') != std::string::npos ||
      from.find('?') != std::string::npos) {
    diags.error(loc,
                "redirect source `" + from + "` must be a page path inside the site (\"old/intro.html\")");
    return;
  }
  Config::Redirect r{from, cfg.source_edition, *target, loc};
  if (auto slash = target->find('/'); slash != std::string::npos) {
    r.edition = target->substr(0, slash);
    r.chapter = target->substr(slash + 1);
  }
  const Edition* e = cfg.edition(r.edition);
  if (!e) {
    diags.error(loc, "redirect `" + from + "`: no edition `" + r.edition + "`");
    return;
  }
  bool known = r.chapter.empty() || r.chapter == "index";
  for (const auto& c : e->chapters) known = known || c.key == r.chapter;
  if (!known) {
    diags.error(loc, "redirect `" + from + "`: edition `" + r.edition + "` has no chapter `" + r.chapter +
                         "` (chapter keys: preface, ch01, ch02, ...)");
    return;
  }
  if (r.chapter == "index") r.chapter.clear();
  cfg.redirects.push_back(std::move(r));
}

}  // namespace

void read_site_config(const toml::table& site, const std::filesystem::path& file, Config& cfg,
                      Diagnostics& diags) {
  for (const auto& [key, value] : site) {
    if (key == "mkdocs-ids") {
      if (auto on = value.value<bool>())
        for (auto& e : cfg.editions) e.mkdocs_ids = *on;
      else
        diags.error(toml_place(file, &value), "`mkdocs-ids` must be true or false");
    } else if (key == "redirects") {
      const auto* table = value.as_table();
      if (!table) {
        diags.error(toml_place(file, &value), "`redirects` must be a table: \"old/path.html\" = \"ch04\"");
        continue;
      }
      for (const auto& [from, target] : *table)
        read_redirect(std::string(from.str()), target, file, cfg, diags);
    } else {
      diags.warning(toml_place(file, &value), "unknown key `" + std::string(key.str()) + "` in [site]" +
                                                  text::did_you_mean(key.str(), {"mkdocs-ids", "redirects"}));
    }
  }
}

}  // namespace bb::book
