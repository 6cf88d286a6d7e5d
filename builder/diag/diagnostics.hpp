// Diagnostics: every problem the tool finds is a value with a place; all are collected, then printed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bb {

// The file of a SourceLoc: one shared copy of each path for the whole process (interned), so that
// the hundreds of thousands of nodes of a book each hold a pointer rather than their own copy of a
// path and its component list. Reads like a `const std::filesystem::path&`.
class SourcePath {
 public:
  SourcePath();
  SourcePath(const std::filesystem::path& p);  // NOLINT: implicit, as a path is used everywhere
  SourcePath(const char* p) : SourcePath(std::filesystem::path(p)) {}         // NOLINT
  SourcePath(const std::string& p) : SourcePath(std::filesystem::path(p)) {}  // NOLINT

  operator const std::filesystem::path&() const { return *path_; }  // NOLINT
  [[nodiscard]] const std::filesystem::path& get() const { return *path_; }
  [[nodiscard]] bool empty() const { return path_->empty(); }
  [[nodiscard]] std::string string() const { return path_->string(); }
  [[nodiscard]] std::string generic_string() const { return path_->generic_string(); }
  [[nodiscard]] std::filesystem::path filename() const { return path_->filename(); }
  [[nodiscard]] std::filesystem::path lexically_relative(const std::filesystem::path& base) const {
    return path_->lexically_relative(base);
  }
  friend bool operator==(const SourcePath& a, const SourcePath& b) { return a.path_ == b.path_; }
  friend bool operator==(const SourcePath& a, const std::filesystem::path& b) { return *a.path_ == b; }
  friend bool operator<(const SourcePath& a, const SourcePath& b) { return *a.path_ < *b.path_; }

 private:
  const std::filesystem::path* path_;
};

// A place in a manuscript. Lines and columns are 1-based; column counts bytes of the line (as
// cmark-gfm does), line 0 means "the whole file".
struct SourceLoc {
  SourcePath path;
  int line = 0;
  int col = 0;
};

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  std::string check = "parse";  // which check found it: parse, refs, links, numbers, math, ...
  // What kind of problem it is, named as a compiler names its warnings ("link-target", "lfs-pointer",
  // docs/diagnostics.md lists them): shown in brackets on the one-line form and counted by the
  // summary. Empty: the name of its check.
  std::string kind;
};

// The kind a diagnostic is shown and counted under: its own, else its check's name.
std::string_view kind_of(const Diagnostic& d);

// How Diagnostics::print shows each problem: with its source line and a caret (the default), or as
// one line `path:line:col: warning: message [kind]` (-q).
enum class PrintStyle { Full, OneLine };

// Collects diagnostics from every pass of a run. Thread-safe so that chapters can be processed in
// parallel. Printing shows `path:line:col: error: message` and then the source line with a caret.
class Diagnostics {
 public:
  // `kind`: see Diagnostic::kind.
  void error(SourceLoc loc, std::string message, std::string kind = {});
  void warning(SourceLoc loc, std::string message, std::string kind = {});
  void note(SourceLoc loc, std::string message, std::string kind = {});
  void add(Diagnostic d);

  // Tags diagnostics added by this thread while the scope lives with the name of a check
  // (`bookbuild check refs` shows only those). The tag is per thread, so passes may run in parallel.
  class Scope {
   public:
    Scope(Diagnostics&, std::string check) : previous_(std::exchange(current_check(), std::move(check))) {}
    ~Scope() { current_check() = std::move(previous_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::string previous_;
  };

  // Drops every diagnostic located in `file` (`site --serve`, before the file is read again), and
  // returns them.
  std::vector<Diagnostic> forget(const std::filesystem::path& file);
  // The diagnostics located in `file`.
  [[nodiscard]] std::vector<Diagnostic> in(const std::filesystem::path& file) const;

  // Keeps only the diagnostics of the given checks (and parse problems, which affect everything).
  void keep_checks(const std::vector<std::string>& checks);

  [[nodiscard]] bool has_errors() const;
  [[nodiscard]] std::size_t error_count() const;
  [[nodiscard]] std::size_t warning_count() const;
  [[nodiscard]] std::vector<Diagnostic> all() const;

  // Prints every diagnostic in order of file, line and column (stable for equal places), each
  // followed by its source line when the file can be read. `base` makes paths relative for display.
  void print(std::ostream& out, const std::filesystem::path& base = {},
             PrintStyle style = PrintStyle::Full) const;
  // Prints a "N errors, M warnings" line when there is anything to report; with more than one
  // problem, then their counts by kind, most frequent first, one line for errors and one for
  // warnings ("  warnings: 413 link-target, 43 repository-link").
  void print_summary(std::ostream& out) const;

 private:
  static std::string& current_check();
  mutable std::mutex mutex_;
  std::vector<Diagnostic> items_;
};

// Text from a manuscript or a file name made safe for a terminal: control characters (C0, DEL, C1)
// and bidirectional overrides are shown as `\x1B` / `\u202E` escapes, so that a manuscript cannot
// send escape sequences to the reader's terminal through a diagnostic. Tabs are kept on request.
std::string escape_controls(std::string_view text, bool keep_tabs = false);

// Formats one diagnostic as `path:line:col: severity: message` (no source line); control
// characters in the path and the message are escaped.
// With `with_kind`, the kind follows in brackets (`… [link-target]`), as PrintStyle::OneLine shows it.
std::string format_diagnostic(const Diagnostic& d, const std::filesystem::path& base = {},
                              bool with_kind = false);

// Thrown for problems that end a run immediately (unreadable configuration, bad arguments). Carries
// the process exit code the CLI returns.
struct FatalError : std::runtime_error {
  FatalError(std::string message, int code = 1) : std::runtime_error(std::move(message)), exit_code(code) {}
  int exit_code;
};

}  // namespace bb
