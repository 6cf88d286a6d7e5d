// The lines --verbose prints about the configuration (see config_report.hpp).
#include "book/config_report.hpp"

#include <algorithm>

#include "book/output_names.hpp"

namespace bb::book {

namespace {

const char* policy_word(Policy p) {
  switch (p) {
    case Policy::Error: return "error";
    case Policy::Warning: return "warning";
    case Policy::Ignore: return "ignore";
  }
  return "";
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> describe_config(const Config& cfg) {
  const bool layout =
      std::any_of(cfg.editions.begin(), cfg.editions.end(), [](const Edition& e) { return e.detected; });
  const std::string fallback = layout ? "default for a detected layout" : "default";
  auto from = [&](const std::string& key, const std::string& otherwise) {
    auto it = cfg.origins.find(key);
    return " (" + (it == cfg.origins.end() ? otherwise : it->second) + ")";
  };
  std::vector<std::string> out;
  out.push_back("configuration: " +
                (cfg.config_file.empty()
                     ? std::string("no book.toml; the folder's layout")
                     : cfg.config_file.filename().string() + " over the folder's layout"));
  out.push_back("title: " + cfg.title + from("title", "the repository's name, else the folder's"));
  out.push_back("authors: " + (cfg.authors.empty() ? std::string("(none)") : join(cfg.authors)) +
                from("authors", "not found"));
  out.push_back("repository: " + (cfg.repository.empty() ? std::string("(none)") : cfg.repository) +
                from("repository", "no book.toml key, no Git remote"));
  out.push_back("site-url: " + (cfg.site_url.empty() ? std::string("(none)") : cfg.site_url) +
                from("site-url", "not set"));
  out.push_back("source-edition: " + cfg.source_edition + from("source-edition", "the first edition"));
  for (const auto& e : cfg.editions) {
    out.push_back("edition " + e.id + ": " + e.folder.generic_string() + "/, " +
                  std::to_string(e.chapters.size()) + " chapters, site /" + e.site_path + ", download " +
                  output_file(cfg, e, "") + (e.mkdocs_ids ? ", MkDocs addresses kept" : "") +
                  from("edition." + e.id, "book.toml"));
    out.push_back("edition " + e.id + " title: " + e.title +
                  from("edition." + e.id + ".title", "the book's title"));
  }
  const std::pair<const char*, Policy> policies[] = {
      {"plain-references", cfg.plain_references},     {"repository-links", cfg.repository_links},
      {"number-punctuation", cfg.number_punctuation}, {"number-order", cfg.number_order},
      {"section-order", cfg.section_order},           {"edition-structure", cfg.edition_structure}};
  for (const auto& [name, value] : policies)
    out.push_back(std::string("policy ") + name + ": " + policy_word(value) +
                  from(std::string("policy.") + name,
                       cfg.origins.count("policy.style") &&
                               std::string_view(name).find("-order") != std::string_view::npos
                           ? cfg.origins.at("policy.style")
                           : fallback));
  return out;
}

}  // namespace bb::book
