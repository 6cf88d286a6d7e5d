// Reporting the real book's forms of scenarios/book.json (see scenario_forms.hpp).
#include "check/scenario_forms.hpp"

#include "calc/scenario_file.hpp"

namespace bb::check {

bool check_scenario_form(const std::filesystem::path& calculations, ResultsReport& report,
                         Diagnostics& diags) {
  const calc::ScenarioFile file = calc::read_scenario_file(calculations);
  const std::filesystem::path where = calculations / "scenarios" / "book.json";
  switch (file.form) {
    case calc::ScenarioForm::Absent:
    case calc::ScenarioForm::Scenarios:
    case calc::ScenarioForm::Unknown:  // the bookbuild reader says what it expected, where
      return false;
    case calc::ScenarioForm::LfsPointer:
      diags.warning({where, 1, 1},
                    "a Git LFS pointer (" + file.lfs_oid + ", " + file.lfs_size +
                        " bytes): its content was not fetched (`git lfs pull`), so no scenario is "
                        "recomputed; each cited result is recomputed from the scenario it records where the "
                        "library has its calculation, else read as committed",
                    "lfs-pointer");
      return true;
    case calc::ScenarioForm::Topics:
      for (const auto& p : file.problems) diags.warning({where, p.line, p.col}, p.message);
      report.not_recomputed += static_cast<int>(file.rows.size());
      return true;
  }
  return false;
}

}  // namespace bb::check
