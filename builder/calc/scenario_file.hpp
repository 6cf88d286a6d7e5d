// What calculations/scenarios/book.json holds, told apart before anything reads it: bookbuild's own
// `{"schema_version": 1, "scenarios": [...]}`, the real book's rows grouped by topic
// (`{"schema_version": 1, "<topic>": [rows]}`), or a Git LFS pointer whose content a clone never fetched.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "calc/json.hpp"
#include "calc/scenarios.hpp"

namespace bb::calc {

enum class ScenarioForm {
  Absent,      // no scenarios/book.json
  Scenarios,   // bookbuild's list, read by load_scenarios
  Topics,      // the real book's {"<topic>": [rows]}
  LfsPointer,  // `version https://git-lfs.github.com/spec/v1` … : content not fetched
  Unknown,     // neither: reported, never guessed
};

// One row of a topic: its id (empty when the row has none) and its inputs (the row's `inputs` object
// when it has one, else the row without `id`).
struct TopicRow {
  std::string topic;
  std::string id;
  Json inputs;
  int line = 0;
};

struct ScenarioFile {
  ScenarioForm form = ScenarioForm::Absent;
  std::vector<TopicRow> rows;             // Topics only
  std::vector<ScenarioProblem> problems;  // parts not read, each where it stands
  std::string lfs_oid;                    // LfsPointer: "sha256:…"
  std::string lfs_size;                   // LfsPointer: bytes of the real content
};

// A Git LFS pointer file (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md): small, starts
// with the spec's version line, then `key value` lines.
bool is_lfs_pointer(std::string_view text);

// The real book's form: an object without a `scenarios` list whose values include a list.
bool is_topic_form(const Json& doc);

// Reads scenarios/book.json under `calculations` in whichever form it has.
ScenarioFile read_scenario_file(const std::filesystem::path& calculations);

}  // namespace bb::calc
