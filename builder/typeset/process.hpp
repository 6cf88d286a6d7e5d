// Running an external program (xelatex, git) without a shell: arguments are passed as they are, so
// paths with spaces or quotes need no quoting.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb::typeset {

struct ProcessResult {
  int exit_code = -1;      // -1 when the program could not be started or was killed
  bool timed_out = false;  // killed after the timeout
  std::string out;         // standard output when captured
};

struct ProcessOptions {
  std::filesystem::path cwd;                             // working directory (default: the current one)
  bool capture = false;                                  // capture stdout, else discard it
  std::chrono::seconds timeout{0};                       // 0: none
  std::vector<std::pair<std::string, std::string>> env;  // added to the environment
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// The full path of a program found in PATH, or nullopt.
std::optional<std::filesystem::path> find_program(const std::string& name);

}  // namespace bb::typeset
