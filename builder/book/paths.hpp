// Confinement: the one rule that decides whether a path named by book.toml or a manuscript is inside
// the book. Symbolic links are resolved first, so a link inside the book that points outside it is
// outside. Every input path of every output goes through here (docs/security.md).
#pragma once

#include <filesystem>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace bb::book {

struct ConfinedPath {
  std::filesystem::path path;  // canonical, inside the root; empty when refused
  std::string error;           // why it was refused ("is outside the book", ...); empty when accepted
  // What `path` is (through symbolic links), as confine saw it: not_found for a path that does not
  // exist, so that the caller need not look at the disk again.
  std::filesystem::file_status status;
  [[nodiscard]] bool ok() const { return error.empty(); }
};

// One guard serves many paths: the canonical form of each folder it has seen, and the answer for each
// path it was asked about, are kept for its lifetime. So a guard is made per run (per resolution of an
// edition), never kept across runs (`site --serve` makes a new one for each build): a file made or
// removed later is not seen by a guard that has answered for it. One guard may serve every thread of
// a resolution: its memo is behind a lock (the chapters of an edition link to the same files, and each
// answer costs a stat or more).
class PathGuard {
 public:
  // `root` is the book's root folder; it is made canonical once.
  explicit PathGuard(const std::filesystem::path& root);
  PathGuard(const PathGuard&) = delete;
  PathGuard& operator=(const PathGuard&) = delete;

  // `path` (absolute, or relative to the root) resolved through symbolic links, if it lies inside the
  // root. A path that does not exist is accepted when its lexical form is inside the root and no
  // existing folder on the way leads outside it (the caller reports a missing file itself).
  ConfinedPath confine(const std::filesystem::path& path);
  // The same for a path given as bytes (no std::filesystem::path is made on the way in). The answer
  // is the guard's own, valid while the guard lives (no copy of its path is made per call).
  const ConfinedPath& confine_bytes(std::string_view path);

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }

 private:
  std::string canonical_dir(const std::string& dir);
  ConfinedPath confine_lexical(const std::string& lexical);
  bool inside(std::string_view p) const;

  std::filesystem::path root_;
  // Both memos by the path's bytes (normal forms). A thread that misses computes the answer without
  // the lock, so two may compute the same one; they find the same (the disk does not change under a run).
  mutable std::shared_mutex mutex_;
  // Lexical folder → canonical folder.
  std::unordered_map<std::string, std::string> dirs_;
  // Lexical path inside the root → what confine_bytes answered for it.
  std::unordered_map<std::string, ConfinedPath> paths_;
};

// path.lexically_normal(), computed on the bytes for an absolute path (without splitting it into
// path components, several times faster); other paths go to lexically_normal() itself.
std::filesystem::path lexically_normal(const std::filesystem::path& path);
// The same, bytes in and out: lexically_normal(path).native().
std::string normal_form(const std::string& path);

// `base` / `relative` as std::filesystem::path's operator/ joins them (an absolute `relative`
// replaces `base`; one separator between), on the bytes.
std::string join_path(std::string_view base, std::string_view relative);

// Whether a relative output path (an edition's site-path, a file name) stays inside the folder it is
// relative to: not absolute, no `..` component, no backslash, no NUL, no drive letter.
bool is_safe_relative(std::string_view relative);

}  // namespace bb::book
