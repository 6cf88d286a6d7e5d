// The calc commands as data: names, arguments (with defaults) and the function that runs each.
// The CLI registers options from these specs and scenario rows are checked against them, so
// `bookbuild calc forward --tokens 8192` and a book.json row {"command": "forward", "tokens": 8192}
// go through exactly the same code.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

enum class ArgKind { Integer, Number, Text, Choice, Flag, File };

struct ArgSpec {
  std::string name;  // snake_case; the CLI spells it --kebab-case
  ArgKind kind = ArgKind::Integer;
  std::optional<std::string> default_value;  // as the user would type it; nullopt = optional or required
  bool required = false;
  std::vector<std::string> choices;  // for ArgKind::Choice
  std::string help;
};

class Args;

struct CommandSpec {
  std::string name;
  std::string summary;
  std::vector<ArgSpec> args;
  bool has_operators = false;  // the result has an operator list (CSV output is available)
  std::function<Json(const Data&, const Args&)> run;
};

// Argument values for one command run: JSON values from a scenario row or strings from the command line.
class Args {
 public:
  // Unknown names are an error; `base_dir` resolves relative file arguments.
  Args(const CommandSpec& spec, Json values, std::filesystem::path base_dir);

  bool given(std::string_view name) const;
  Int integer(std::string_view name) const;
  std::optional<Int> optional_integer(std::string_view name) const;
  double number(std::string_view name) const;
  std::optional<double> optional_number(std::string_view name) const;
  std::string text(std::string_view name) const;
  bool flag(std::string_view name) const;
  std::filesystem::path file(std::string_view name) const;  // resolved; empty when not given
  std::string file_label(std::string_view name) const;      // as written by the user
  const Json& values() const { return values_; }

 private:
  const ArgSpec& spec(std::string_view name) const;
  std::optional<Json> raw(std::string_view name) const;  // given value or default, nullopt if neither
  const CommandSpec& command_;
  Json values_;
  std::filesystem::path base_dir_;
};

const std::vector<CommandSpec>& command_specs();
const CommandSpec& command_spec(std::string_view name);  // unknown command: Error listing the known ones

// Runs a command with argument values (a JSON object) against a calculations folder.
Json run_command(const Data& data, std::string_view command, const Json& values,
                 const std::filesystem::path& base_dir);

}  // namespace bb::calc
