// Progress of long work on a terminal: one status line ("[pdf zh] xelatex pass 2/3") redrawn in place,
// and wiped before anything else reaches the terminal, so that diagnostics are never garbled.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace bb {

enum class ProgressMode { Auto, Always, Never };

// Whether a run shows progress: never with --quiet; `always` and `never` as asked; `auto` only when
// stderr is a terminal and TERM is set and not "dumb" (a CI log, a pipe or an editor's pane gets none).
bool progress_wanted(ProgressMode mode, bool quiet, bool stderr_is_terminal, const char* term);

// The status line. All members are thread-safe: the site renders editions, and the figure cache
// renders PDFs, on several threads at once. A disabled reporter writes nothing at all.
class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts drawing on `terminal` (the stream buffer stderr had), lines cut to `columns` - 1 cells so
  // that a line never wraps (a wrapped line cannot be wiped with one carriage return). Frequent
  // updates within `min_interval` of the last redraw are skipped: a thousand quick steps cost nothing.
  void enable(std::streambuf* terminal, int columns, std::chrono::milliseconds min_interval = {});
  [[nodiscard]] bool enabled() const { return terminal_.load(std::memory_order_acquire) != nullptr; }

  // Shows "[label] text" in place of the current status line. Control characters in either (an
  // edition id comes from book.toml) are shown escaped. A `frequent` update (one step of many) is
  // skipped when the last redraw is younger than the minimum interval; any other is always drawn.
  void status(std::string_view label, std::string_view text, bool frequent = false);
  // Wipes the status line, if one is shown.
  void clear();

  // A stream buffer that writes to `target` and wipes the status line before the first byte of each
  // write; the CLI puts one on std::cerr and one on std::cout, so that every line the tool prints —
  // a diagnostic, a summary — starts on a clean line. A status line is drawn only between whole
  // lines of that output, never in the middle of one. Owned by this reporter.
  std::streambuf* guard(std::streambuf* target);

 private:
  class Guard;
  void wipe_locked();
  void draw_locked(const std::string& line);

  std::mutex mutex_;
  std::atomic<std::streambuf*> terminal_{nullptr};
  int columns_ = 80;
  std::chrono::milliseconds min_interval_{};
  std::chrono::steady_clock::time_point last_draw_{};
  bool shown_ = false;     // a status line is on the terminal
  bool mid_line_ = false;  // guarded output wrote part of a line: no status until it ends
  std::string last_;       // the line last drawn
  std::vector<std::unique_ptr<Guard>> guards_;
};

// The process's reporter: disabled until the CLI enables it (`--progress`), so that library code
// and tests may report progress freely.
Progress& progress();

// "[label] what i/n" as items finish, on any thread: e.g. `[site] pages 12/40`.
class ProgressCount {
 public:
  ProgressCount(std::string label, std::string what, std::size_t total, Progress& to = progress());
  void step();

 private:
  Progress& to_;
  std::string label_, what_;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
};

}  // namespace bb
