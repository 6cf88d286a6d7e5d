// The notes of what a run looked at (inputs.hpp).
#include "inputs/inputs.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_set>

namespace bb::inputs {

namespace {

std::atomic<bool> g_recording{false};
std::atomic<bool> g_spoiled{false};

struct Notes {
  std::mutex mutex;
  std::string cwd;
  std::unordered_set<std::string> files, folders, trees;
};

Notes& notes() {
  static auto* n = new Notes();  // lives until exit: notes may come from any thread until then
  return *n;
}

// `path` made absolute against the current folder, without `.` and `..` components resolved (a
// `..` after a symbolic link is the kernel's to follow, as it was when the run looked).
std::string absolute(std::string_view path, const std::string& cwd) {
  if (!path.empty() && path.front() == '/') return std::string(path);
  std::string out = cwd;
  if (out.empty() || out.back() != '/') out += '/';
  out += path;
  return out;
}

void note(std::unordered_set<std::string> Notes::*set, std::string_view path) {
  if (!g_recording.load(std::memory_order_relaxed) || path.empty()) return;
  Notes& n = notes();
  std::lock_guard lock(n.mutex);
  (n.*set).insert(absolute(path, n.cwd));
}

std::vector<std::string> sorted(const std::unordered_set<std::string>& set) {
  std::vector<std::string> v(set.begin(), set.end());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

void start() {
  Notes& n = notes();
  {
    std::lock_guard lock(n.mutex);
    char buf[4096];
    n.cwd = ::getcwd(buf, sizeof buf) ? buf : "";
  }
  // Without the current folder a relative path cannot be noted: nothing is recorded.
  if (n.cwd.empty()) spoil();
  g_recording.store(true);
}

void stop() {
  g_recording.store(false);
  spoil();
}

bool recording() {
  return g_recording.load(std::memory_order_relaxed);
}

void note_file(std::string_view path) {
  note(&Notes::files, path);
}
void note_folder(std::string_view dir) {
  note(&Notes::folders, dir);
}
void note_tree(std::string_view dir) {
  note(&Notes::trees, dir);
}

void spoil() {
  g_spoiled.store(true);
}
bool spoiled() {
  return g_spoiled.load();
}

Noted noted() {
  Notes& n = notes();
  std::lock_guard lock(n.mutex);
  return {sorted(n.files), sorted(n.folders), sorted(n.trees)};
}

}  // namespace bb::inputs
