// Path confinement with a per-folder cache of canonical paths (one lstat per file, not one per path
// component, keeps resolving a chapter's hundreds of links cheap).
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

fs::path PathGuard::canonical_dir(const fs::path& dir) {
  if (auto it = dirs_.find(dir); it != dirs_.end()) return it->second;
  std::error_code ec;
  fs::path c = fs::weakly_canonical(dir, ec);
  if (ec) c = dir;
  dirs_.emplace(dir, c);
  return c;
}

ConfinedPath PathGuard::confine(const fs::path& path) {
  fs::path lexical = (path.is_absolute() ? path : root_ / path).lexically_normal();
  if (!inside(lexical) && lexical != root_) return {{}, "is outside the book"};
  fs::path dir = canonical_dir(lexical.parent_path());
  fs::path full = dir / lexical.filename();
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(full, ec))) {
    full = fs::weakly_canonical(full, ec);
    if (ec || !inside(full)) return {{}, "is a symbolic link to a file outside the book"};
  }
  if (!inside(full) && full != root_) return {{}, "is inside a folder that links outside the book"};
  return {full, {}};
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
