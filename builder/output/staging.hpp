// Writing outputs safely: everything is built aside and swapped in only when complete, so a failed
// or interrupted build never leaves a half-written output behind.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace bb::output {

// A directory built in a sibling temporary folder and swapped into place by commit(). If commit()
// is never called (an error, an exception), the temporary folder is removed and the previous
// output stays as it was; the stale siblings of killed builds are removed when the next one starts.
class StagedDir {
 public:
  explicit StagedDir(std::filesystem::path target);
  ~StagedDir();
  StagedDir(const StagedDir&) = delete;
  StagedDir& operator=(const StagedDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return tmp_; }
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path tmp_;
  std::vector<std::filesystem::path> created_;  // parent folders this build made, deepest first
  bool committed_ = false;
};

// A single file written to a temporary sibling and renamed over the target. A failure (a full disk,
// a folder that cannot be written) removes the temporary file and throws a FatalError.
void write_file_atomic(const std::filesystem::path& target, std::string_view content);

// Writes a file, creating its parent folders (for use inside a StagedDir); a partial file is removed.
void write_file(const std::filesystem::path& path, std::string_view content);

// `to` becomes a hard link to `from` (nothing writes to an output's figures, and an editor that saves
// a file writes a new one), or a copy where a link cannot be made (another file system). Whatever was
// at `to` is replaced by a rename, whole and at once — also another process's output and a link to
// `from` itself. Throws std::filesystem::filesystem_error when neither can be made.
void link_or_copy(const std::filesystem::path& from, const std::filesystem::path& to);

// True when `file` is a regular file (not a symbolic link) holding exactly `bytes`: an output that
// would be written again with the same content.
bool holds(const std::filesystem::path& file, std::string_view bytes);
// The reading half of holds(), for a caller that examined the file already (output::FileRecord):
// whether its first bytes.size() bytes, read without following a symbolic link, are `bytes`.
bool reads_as(const std::filesystem::path& file, std::string_view bytes);

// Creates an output folder and its parents, or throws a FatalError that names it and the cause.
void create_output_dir(const std::filesystem::path& dir);

// Removes the temporary siblings (`.<name>.tmp-<pid>`, `.<name>.old-<pid>`) that builds killed
// before they could clean up left next to `target`. Those of running processes are kept.
void remove_stale_siblings(const std::filesystem::path& target);

// What builds into `out` keep there between runs, `<out>/.cache/` (figures, search indexes,
// highlighted code; docs/pipeline.md §5). Derived data only: deleting it costs time, not results.
inline constexpr std::string_view kCacheFolder = ".cache";
inline std::filesystem::path cache_dir(const std::filesystem::path& out) {
  return out / kCacheFolder;
}

}  // namespace bb::output
