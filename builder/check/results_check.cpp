// Committed results, scenario references and catalogue sources (see results_check.hpp).
#include "check/results_check.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "calc/data.hpp"
#include "calc/error.hpp"
#include "calc/formula.hpp"
#include "calc/hardware.hpp"
#include "calc/reproduce.hpp"
#include "calc/scenarios.hpp"
#include "check/scenario_forms.hpp"

namespace bb::check {
namespace fs = std::filesystem;

namespace {

// The scenario ids an expression reads: the head of `scenario.field`; none for catalogue facts and
// inline calls (they have no committed result file).
std::string scenario_of(const std::string& expr) {
  auto dot = expr.find('.');
  auto open = expr.find('(');
  if (dot == std::string::npos || (open != std::string::npos && open < dot)) return {};
  return expr.substr(0, dot);
}

}  // namespace

std::string scenario_of_link(const std::string& url) {
  auto at = url.find("calculations/results/");
  if (at == std::string::npos) return {};
  std::string file = url.substr(at + 21);
  if (auto hash = file.find_first_of("#?"); hash != std::string::npos) file.resize(hash);
  auto dot = file.rfind('.');
  return dot == std::string::npos ? file : file.substr(0, dot);
}

namespace {

int line_of(const fs::path& file, const std::string& needle) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return 1;
}

}  // namespace

void scenario_links(const doc::Node& root, ScenarioLinks& out) {
  doc::walk(root, [&](const doc::Node& n) {
    if (n.kind != doc::Kind::Link) return;
    if (std::string id = scenario_of_link(n.url()); !id.empty()) out.emplace_back(std::move(id), n.loc);
  });
}

ResultsReport check_results(const book::Book& book, const filters::Resolution& resolution,
                            Diagnostics& diags) {
  ScenarioLinks links;
  for (const auto& eb : book.editions)
    for (const auto& ch : eb.chapters) scenario_links(ch.root, links);
  return check_results(book, resolution, links, diags);
}

ResultsReport check_results(const book::Book& book, const filters::Resolution& resolution,
                            const ScenarioLinks& links, Diagnostics& diags, calc::Engine* engine) {
  ResultsReport report;
  const fs::path dir = book.config.calculations;
  if (!fs::is_directory(dir)) return report;
  if (check_scenario_form(dir, report, diags)) return report;
  const fs::path scenario_file = dir / "scenarios" / "book.json";
  std::vector<calc::ResultStatus> statuses;
  try {
    calc::Data data(dir);
    for (const auto& p : calc::check_scenario_references(data, calc::load_scenarios(data)))
      diags.error({scenario_file, p.line, p.col}, p.message);
    for (const auto& [device, problem] : calc::audit_catalog(data)) {
      fs::path hw = dir / "configs" / "hardware.json";
      diags.error({hw, line_of(hw, "\"id\": \"" + device + "\""), 1}, "device '" + device + "': " + problem);
      ++report.catalogue_problems;
    }
    statuses = engine ? calc::check_results(*engine) : calc::check_results(data);
    if (!calc::manifest_current(data, statuses))
      diags.error(
          {dir / "results" / "manifest.json", 1, 1},
          "the inputs or results changed since the manifest was written: run `bookbuild calc reproduce "
          "--write` and commit calculations/results");
  } catch (const calc::Error& e) {
    diags.error({scenario_file, 1, 1}, e.what());
    return report;
  }
  // Who cites each scenario: placeholders and bound literals, and links to its result files.
  // Keyed by the interned manuscript path (ordered by its value), not a copy of the path: a large
  // book cites its scenarios at tens of thousands of lines. Gathered only when a scenario is stale,
  // the one case that names them (it was half of this check's time on a 100x book).
  std::map<std::string, std::set<std::pair<SourcePath, int>>> cited;
  std::map<std::pair<SourcePath, int>, SourceLoc> first_at;
  auto gather_citations = [&] {
    auto cite = [&](const std::string& id, const SourceLoc& loc) {
      if (id.empty()) return;
      cited[id].insert({loc.path, loc.line});
      first_at.try_emplace({loc.path, loc.line}, loc);
    };
    for (const auto& b : resolution.bindings) {
      if (!calc::is_formula(calc::Json(b.expr))) {
        cite(scenario_of(b.expr), b.loc);
        continue;
      }
      // A formula cites every scenario it reads.
      try {
        for (const auto& ref : calc::formula_references(b.expr)) cite(scenario_of(ref), b.loc);
      } catch (const std::exception&) {
        // Malformed formulas are reported where the number is resolved.
      }
    }
    for (const auto& [id, loc] : links) cite(id, loc);
  };
  bool gathered = false;
  for (const auto& st : statuses) {
    ++report.scenarios;
    if (!st.error.empty()) {
      diags.error({scenario_file, st.line, 1}, st.error);
      continue;
    }
    report.recomputed.insert(st.scenario);
    if (st.stale_files.empty()) continue;
    ++report.stale_scenarios;
    std::string files;
    for (const auto& f : st.stale_files) files += (files.empty() ? "" : ", ") + ("calculations/" + f);
    if (!gathered) gather_citations(), gathered = true;
    auto users = cited.find(st.scenario);
    diags.error({scenario_file, st.line, 1},
                "scenario '" + st.scenario + "' recomputes differently from its committed " + files +
                    " (cited at " + std::to_string(users == cited.end() ? 0 : users->second.size()) +
                    " manuscript lines): run `bookbuild calc reproduce --write` and commit the results");
    if (users == cited.end()) continue;
    for (const auto& key : users->second) {
      diags.error(first_at.at(key), "cites scenario '" + st.scenario +
                                        "', whose committed result calculations/results/" + st.scenario +
                                        ".* is stale");
      ++report.citations_of_stale;
    }
  }
  return report;
}

}  // namespace bb::check
