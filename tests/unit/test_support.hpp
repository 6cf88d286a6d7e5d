// Shared by the unit tests: reading fixtures, comparing with golden files, running the CLI.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace bb::test {

// A test of a cache beneath the build means its warm runs to build: a run record (docs/pipeline.md,
// "Run records") would replay them instead, as soon as the copied fixture is two seconds old (a slow
// test under the sanitizers). So every bookbuild a test starts has records off, unless its command
// says otherwise (run_record_test.cpp starts its own with BOOKBUILD_RUN_RECORD=on).
inline const bool kRunRecordsOff = [] { return ::setenv("BOOKBUILD_RUN_RECORD", "0", 1) == 0; }();

inline std::filesystem::path fixtures() {
  return BOOKBUILD_FIXTURES;
}

#ifdef BOOKBUILD_SOURCE_DIR
// This repository's own book, every part bookbuild reads of it, copied into `into` (created), for a
// test that changes it or builds it with its caches.
inline std::filesystem::path copy_project_book(const std::filesystem::path& into) {
  namespace fs = std::filesystem;
  fs::create_directories(into);
  const fs::path source = BOOKBUILD_SOURCE_DIR;
  for (const char* part : {"book.toml", "manuscripts", "book-en", "book-zh-tw", "book-ru", "calculations",
                           "filters", "templates"})
    fs::copy(source / part, into / part, fs::copy_options::recursive);
  return into;
}
#endif

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& s) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << s;
}

// Compares `actual` with the golden file; with BOOKBUILD_UPDATE_GOLDEN=1 rewrites it instead.
inline void expect_golden(const std::filesystem::path& golden, const std::string& actual) {
  const char* update = std::getenv("BOOKBUILD_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    write_file(golden, actual);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(golden))
      << "missing golden file " << golden << " (run with BOOKBUILD_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(read_file(golden), actual) << "golden file " << golden << " differs";
}

// A folder of the running test's own (named after the process and the test, so parallel ctest runs
// never share it), emptied when created and removed when the test ends.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "bb") {
    path = std::filesystem::temp_directory_path() /
           (prefix + "-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs a shell command, its stdout and stderr each captured in a file (so neither is a terminal).
inline RunResult run_command(const std::string& command) {
  // Unique per process and call: test processes run in parallel (ctest -j) and must not share files.
  static int calls = 0;
  auto tmp = std::filesystem::temp_directory_path() /
             ("bb-run-" + std::to_string(::getpid()) + "-" + std::to_string(++calls));
  std::filesystem::create_directories(tmp);
  std::string cmd = command + " >'" + (tmp / "out").string() + "' 2>'" + (tmp / "err").string() + "'";
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(tmp / "out");
  r.err = read_file(tmp / "err");
  std::filesystem::remove_all(tmp);
  return r;
}

// Runs the bookbuild executable with the given arguments (a shell-quoted string).
inline RunResult run_bookbuild(const std::string& args, const std::filesystem::path& cwd = {}) {
  return run_command((cwd.empty() ? std::string() : "cd '" + cwd.string() + "' && ") +
                     "'" BOOKBUILD_EXE "' " + args);
}

}  // namespace bb::test
