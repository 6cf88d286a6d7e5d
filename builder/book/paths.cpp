// Path confinement with a per-folder cache of canonical paths (one lstat per file and per new folder,
// not one per path component, keeps resolving a chapter's hundreds of links cheap).
#include "book/paths.hpp"

namespace bb::book {

namespace fs = std::filesystem;

PathGuard::PathGuard(const fs::path& root) {
  std::error_code ec;
  root_ = fs::weakly_canonical(fs::absolute(root), ec);
  if (ec) root_ = fs::absolute(root).lexically_normal();
}

bool PathGuard::inside(const fs::path& p) const {
  fs::path rel = p.lexically_relative(root_);
  return !rel.empty() && *rel.begin() != "..";
}

// A folder inside the root is its canonical parent plus its own name, unless that name is a symbolic
// link, which is resolved in full: one lstat per folder the guard has not seen, where
// weakly_canonical would look at every component of every new folder again.
fs::path PathGuard::canonical_dir(const fs::path& dir) {
  if (dir == root_) return root_;
  if (auto it = dirs_.find(dir); it != dirs_.end()) return it->second;
  std::error_code ec;
  fs::path c;
  if (inside(dir)) {
    c = canonical_dir(dir.parent_path()) / dir.filename();
    if (fs::is_symlink(fs::symlink_status(c, ec))) {
      fs::path resolved = fs::weakly_canonical(c, ec);
      if (!ec) c = std::move(resolved);
    }
  } else {
    c = fs::weakly_canonical(dir, ec);
    if (ec) c = dir;
  }
  dirs_.emplace(dir, c);
  return c;
}

ConfinedPath PathGuard::confine(const fs::path& path) {
  fs::path lexical = (path.is_absolute() ? path : root_ / path).lexically_normal();
  if (!inside(lexical) && lexical != root_) return {{}, "is outside the book", {}};
  fs::path dir = canonical_dir(lexical.parent_path());
  fs::path full = dir / lexical.filename();
  std::error_code ec;
  fs::file_status status = fs::symlink_status(full, ec);
  if (fs::is_symlink(status)) {
    full = fs::weakly_canonical(full, ec);
    if (ec || !inside(full)) return {{}, "is a symbolic link to a file outside the book", {}};
    status = fs::status(full, ec);
  }
  if (!inside(full) && full != root_) return {{}, "is inside a folder that links outside the book", {}};
  return {full, {}, status};
}

bool is_safe_relative(std::string_view relative) {
  if (relative.empty()) return true;
  if (relative.front() == '/' || relative.find('\\') != std::string_view::npos ||
      relative.find('\0') != std::string_view::npos)
    return false;
  if (relative.size() >= 2 && relative[1] == ':') return false;
  for (const auto& part : fs::path(relative))
    if (part == "..") return false;
  return true;
}

}  // namespace bb::book
