// Running epubcheck and reading its JSON report back as diagnostics.
#include "check/epubcheck.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "typeset/process.hpp"

namespace bb::check {

namespace fs = std::filesystem;

std::optional<std::vector<std::string>> epubcheck_command() {
  std::optional<fs::path> program;
  if (const char* env = std::getenv("BOOKBUILD_EPUBCHECK")) {
    if (!*env) return std::nullopt;
    program = fs::path(env);
  } else {
    program = typeset::find_program("epubcheck");
  }
  if (!program) return std::nullopt;
  std::error_code ec;
  fs::path real = fs::canonical(*program, ec);
  if (ec) return std::nullopt;
  // Debian installs the jar itself as /usr/bin/epubcheck, runnable only where binfmt knows jars.
  if (real.extension() == ".jar") {
    auto java = typeset::find_program("java");
    if (!java) return std::nullopt;
    return std::vector<std::string>{java->string(), "-jar", real.string()};
  }
  return std::vector<std::string>{real.string()};
}

namespace {

std::string severity_of(const nlohmann::json& m) {
  return m.contains("severity") && m["severity"].is_string() ? m["severity"].get<std::string>() : "";
}

SourceLoc location_of(const nlohmann::json& m, const fs::path& file) {
  if (!m.contains("locations") || !m["locations"].is_array() || m["locations"].empty()) return {file, 0, 0};
  const auto& l = m["locations"][0];
  std::string path = l.value("path", std::string());
  int line = l.value("line", -1);
  int column = l.value("column", -1);
  fs::path where = path.empty() || path == file.filename().string() ? file : file / path;
  return {where, std::max(line, 0), std::max(column, 0)};
}

}  // namespace

void report_epubcheck_json(std::string_view json, int exit_code, const fs::path& file, Diagnostics& diags) {
  // epubcheck prints a line or two of text before the report, and may print some after it.
  std::size_t start = json.starts_with("{") ? 0 : json.find("\n{");
  std::size_t end = json.rfind('}');
  std::string_view body = start == std::string_view::npos || end == std::string_view::npos || end < start
                              ? std::string_view()
                              : json.substr(start, end + 1 - start);
  nlohmann::json report = nlohmann::json::parse(body, nullptr, false);
  bool failed_with_message = false;
  if (report.is_object() && report.contains("messages") && report["messages"].is_array()) {
    for (const auto& m : report["messages"]) {
      std::string severity = severity_of(m);
      std::string text =
          "epubcheck " + m.value("ID", std::string("?")) + ": " + m.value("message", std::string());
      SourceLoc at = location_of(m, file);
      if (severity == "FATAL" || severity == "ERROR") {
        diags.error(at, text);
        failed_with_message = true;
      } else if (severity == "WARNING") {
        diags.warning(at, text);
      }
    }
  } else {
    diags.error({file, 0, 0}, "epubcheck wrote no report that bookbuild can read");
    return;
  }
  if (exit_code != 0 && !failed_with_message)
    diags.error({file, 0, 0}, "epubcheck failed (exit code " + std::to_string(exit_code) + ")");
}

bool run_epubcheck(const std::vector<std::string>& command, const fs::path& file, Diagnostics& diags) {
  std::vector<std::string> argv = command;
  argv.push_back(fs::absolute(file).string());
  argv.push_back("--json");
  argv.push_back("-");
  typeset::ProcessOptions options;
  options.capture = true;
  options.timeout = std::chrono::seconds(600);
  typeset::ProcessResult r = typeset::run_process(argv, options);
  if (r.exit_code == -1 && r.out.empty()) {
    diags.error({file, 0, 0},
                std::string("epubcheck could not be run") + (r.timed_out ? " (timed out)" : ""));
    return false;
  }
  report_epubcheck_json(r.out, r.exit_code, file, diags);
  return true;
}

}  // namespace bb::check
