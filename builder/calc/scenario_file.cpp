// Telling the forms of scenarios/book.json apart and reading the real book's topic rows (see
// scenario_file.hpp).
#include "calc/scenario_file.hpp"
#include "calc/json.hpp"
#include "inputs/file_io.hpp"

#include <fstream>
#include <sstream>

namespace bb::calc {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLfsVersion = "version https://git-lfs.github.com/spec/v1";

// 1-based line of a byte offset, counted on from the last one asked so a long file is walked once
// when offsets grow (nlohmann's objects sort their keys, so a smaller offset restarts the count).
class LineCounter {
 public:
  explicit LineCounter(const std::string& text) : text_(text) {}
  int line_of(size_t offset) {
    if (offset < at_) at_ = 0, line_ = 1;
    for (; at_ < offset && at_ < text_.size(); ++at_)
      if (text_[at_] == '\n') ++line_;
    return line_;
  }

 private:
  const std::string& text_;
  size_t at_ = 0;
  int line_ = 1;
};

std::string kind_name(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "a list";
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a boolean";
  return "null";
}

// Reads one topic's rows; `from` is where the topic's key stands in the text. A row's line is that of
// its id (ids are unique and plain), else that of the topic.
void read_topic(const std::string& topic, const Json& rows, const std::string& text, size_t from,
                LineCounter& lines, ScenarioFile& out) {
  const int topic_line = lines.line_of(from);
  size_t index = 0;
  for (const auto& row : rows) {
    int line = topic_line;
    if (row.is_object() && row.contains("id") && row["id"].is_string())
      if (size_t at = text.find("\"" + row["id"].get<std::string>() + "\"", from); at != std::string::npos)
        line = lines.line_of(at);
    if (!row.is_object()) {
      out.problems.push_back({line, 1,
                              "topic '" + topic + "', row #" + std::to_string(index) + " is " +
                                  kind_name(row) + ", not an object: not read"});
    } else {
      const bool named = row.contains("id") && row["id"].is_string();
      TopicRow r{topic, named ? row["id"].get<std::string>() : "", Json::object(), line};
      if (row.contains("inputs") && row["inputs"].is_object()) {
        r.inputs = row["inputs"];
      } else {
        r.inputs = row;
        r.inputs.erase("id");
      }
      out.rows.push_back(std::move(r));
    }
    ++index;
  }
}

}  // namespace

bool is_lfs_pointer(std::string_view text) {
  return text.size() < 1024 && text.substr(0, kLfsVersion.size()) == kLfsVersion &&
         text.find("\noid ") != std::string_view::npos;
}

bool is_topic_form(const Json& doc) {
  if (!doc.is_object() || doc.contains("scenarios")) return false;
  for (const auto& [key, value] : doc.items())
    if (value.is_array()) return true;
  return false;
}

ScenarioFile read_scenario_file(const fs::path& calculations) {
  ScenarioFile out;
  const fs::path path = calculations / "scenarios" / "book.json";
  auto read = inputs::read_bounded(path, kMaxDataFileBytes);
  if (!read.ok()) return out;
  const std::string text = std::move(read.bytes);
  if (is_lfs_pointer(text)) {
    out.form = ScenarioForm::LfsPointer;
    std::istringstream lines(text);
    for (std::string key, value; lines >> key >> value;) {
      if (key == "oid") out.lfs_oid = value;
      if (key == "size") out.lfs_size = value;
    }
    return out;
  }
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    out.form = ScenarioForm::Unknown;
    out.problems.push_back({1, 1, "not JSON and not a Git LFS pointer: not read"});
    return out;
  }
  if (doc.is_object() && doc.contains("scenarios") && doc["scenarios"].is_array()) {
    out.form = ScenarioForm::Scenarios;
    return out;
  }
  if (!is_topic_form(doc)) {
    out.form = ScenarioForm::Unknown;
    out.problems.push_back(
        {1, 1,
         "is " + kind_name(doc) +
             " with neither a \"scenarios\" list nor topics of rows ({\"<topic>\": [rows]}): not read"});
    return out;
  }
  out.form = ScenarioForm::Topics;
  LineCounter lines(text);
  for (const auto& [topic, value] : doc.items()) {
    const size_t key_at = text.find("\"" + topic + "\"");
    const int line = lines.line_of(key_at == std::string::npos ? 0 : key_at);
    if (value.is_array()) {
      read_topic(topic, value, text, key_at == std::string::npos ? 0 : key_at, lines, out);
    } else if (topic != "schema_version" && topic != "note" && topic != "description") {
      out.problems.push_back(
          {line, 1, "'" + topic + "' is " + kind_name(value) + ", not a list of rows: not read"});
    }
  }
  return out;
}

}  // namespace bb::calc
