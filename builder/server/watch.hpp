// Watching the book's files for `bookbuild site --serve` (Linux inotify, no polling).
#pragma once

#include <chrono>
#include <filesystem>
#include <set>
#include <vector>

#include "inputs/file_io.hpp"

namespace bb::server {

class Watcher {
 public:
  Watcher();
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Watches a folder and, recursively, every folder below it (folders created later included).
  // Folders whose name is in `skip` (e.g. the output folder) are not entered.
  void add_tree(const std::filesystem::path& dir, const std::set<std::filesystem::path>& skip = {});

  // Blocks until something changes, then collects further changes until every file written has been
  // closed (or renamed into place) and nothing else happened for `quiet`, waiting at most `settle`
  // for a file still open for writing (editors often write a file in several steps). Returns the
  // changed files; empty on timeout.
  std::vector<std::filesystem::path> wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle,
                                          std::chrono::milliseconds quiet = std::chrono::milliseconds(1));

 private:
  void add_one(const std::filesystem::path& dir);
  inputs::Fd fd_;
  std::vector<std::pair<int, std::filesystem::path>> watches_;
  std::set<std::filesystem::path> skip_;
};

}  // namespace bb::server
