// The citation keys of book.toml (bibliography_config.hpp).
#include "book/bibliography_config.hpp"
#include "book/toml_read.hpp"

#include "book/paths.hpp"
#include "inputs/inputs.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

// `bibliography = "refs.bib"` or a list of such names, each with the node that names it.
std::vector<std::pair<std::string, const toml::node*>> names(const toml::node& n, const fs::path& file,
                                                             Diagnostics& diags) {
  std::vector<std::pair<std::string, const toml::node*>> out;
  if (auto v = n.value<std::string>()) {
    out.emplace_back(*v, &n);
  } else if (const auto* list = n.as_array()) {
    for (const auto& item : *list) {
      if (auto s = item.value<std::string>())
        out.emplace_back(*s, &item);
      else
        diags.error(toml_place(file, &item), "`bibliography` lists file names (strings)");
    }
  } else {
    diags.error(toml_place(file, &n), "`bibliography` is a file name or a list of them: \"refs.bib\"");
  }
  return out;
}

}  // namespace

void read_citation_config(const toml::table& book, Config& cfg, Diagnostics& diags) {
  const fs::path& file = cfg.config_file;
  Citations& c = cfg.citations;
  if (const toml::node* n = book.get("citation-style")) {
    const auto v = n->value<std::string>();
    if (v == "numeric")
      c.style = bib::Style::Numeric;
    else if (v != "author-date")
      diags.error(toml_place(file, n),
                  "`citation-style` is \"author-date\" or \"numeric\" (CSL files are not read)");
  }
  if (const toml::node* n = book.get("references")) {
    const auto v = n->value<std::string>();
    if (v == "end")
      c.at_end = true;
    else if (v != "chapter")
      diags.error(toml_place(file, n),
                  "`references` is \"chapter\" (a list at the end of each chapter that cites) or "
                  "\"end\" (one list at the end of the last chapter)");
  }
  const toml::node* n = book.get("bibliography");
  if (!n) return;
  c.loc = toml_place(file, n);
  auto bibliography = std::make_shared<bib::Bibliography>();
  PathGuard guard(cfg.root);
  for (const auto& [name, node] : names(*n, file, diags)) {
    const fs::path ext = fs::path(name).extension();
    if (ext != ".bib" && ext != ".json") {
      diags.error(toml_place(file, node),
                  "bibliography `" + name + "` must be a BibTeX (.bib) or CSL-JSON (.json) file");
      continue;
    }
    inputs::note_file(cfg.root / name);
    const auto confined = guard.confine(cfg.root / name);
    if (!confined.ok()) {
      diags.error(toml_place(file, node), "bibliography `" + name + "` " + confined.error);
      continue;
    }
    if (!fs::is_regular_file(confined.status)) {
      diags.error(toml_place(file, node), "bibliography `" + name + "` does not exist (or is not a file)");
      continue;
    }
    bib::read_bibliography_file(confined.path, *bibliography, diags);
  }
  c.bibliography = std::move(bibliography);
}

}  // namespace bb::book
