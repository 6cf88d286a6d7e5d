// Writing outputs safely: everything is built aside and swapped in only when complete, so a failed
// or interrupted build never leaves a half-written output behind.
#pragma once

#include <filesystem>
#include <string_view>

namespace bb::output {

// A directory built in a sibling temporary folder and swapped into place by commit(). If commit()
// is never called (an error, an exception), the temporary folder is removed and the previous
// output stays as it was.
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
  bool committed_ = false;
};

// A single file written to a temporary sibling and renamed over the target.
void write_file_atomic(const std::filesystem::path& target, std::string_view content);

// Writes a file, creating its parent folders (for use inside a StagedDir).
void write_file(const std::filesystem::path& path, std::string_view content);

}  // namespace bb::output
