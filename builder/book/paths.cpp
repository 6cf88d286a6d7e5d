// Path confinement with a per-folder cache of canonical paths (one lstat per file and per new folder,
// not one per path component, keeps resolving a chapter's hundreds of links cheap).
#include "book/paths.hpp"

#include <string_view>
#include <vector>

namespace bb::book {

namespace fs = std::filesystem;

PathGuard::PathGuard(const fs::path& root) {
  std::error_code ec;
  root_ = fs::weakly_canonical(fs::absolute(root), ec);
  if (ec) root_ = fs::absolute(root).lexically_normal();
  // "/book/" (given with a slash) is "/book": inside() compares bytes.
  while (root_.native().size() > 1 && root_.native().ends_with('/'))
    root_ = root_.native().substr(0, root_.native().size() - 1);
}

// Every path given here is absolute and lexically normal (no `.` or `..` component, no doubled
// separator), as is the root: then "inside" is "the root itself, or the root and a separator before
// the rest", a comparison of bytes, where lexically_relative would split both paths into components
// (most of the cost of resolving a chapter's links).
bool PathGuard::inside(const fs::path& p) const {
  const std::string& s = p.native();
  const std::string& r = root_.native();
  if (!s.starts_with(r)) return false;
  if (s.size() == r.size() || r.ends_with('/')) return true;
  return s[r.size()] == '/';
}

// A folder inside the root is its canonical parent plus its own name, unless that name is a symbolic
// link, which is resolved in full: one lstat per folder the guard has not seen, where
// weakly_canonical would look at every component of every new folder again.
fs::path PathGuard::canonical_dir(const fs::path& dir) {
  if (dir.native() == root_.native()) return root_;
  if (auto it = dirs_.find(dir.native()); it != dirs_.end()) return it->second;
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
  dirs_.emplace(dir.native(), c);
  return c;
}

fs::path lexically_normal(const fs::path& path) {
  const std::string& s = path.native();
  if (s.empty() || s.front() != '/') return path.lexically_normal();
  // The steps of [fs.path.generic] "normal form" for a path with a root directory and no root name:
  // separators collapsed, `.` dropped, `name/..` dropped, `..` at the root dropped; the path keeps a
  // trailing separator when it had one or when its last component was `.` or `..`.
  std::vector<std::string_view> parts;
  bool trailing = false;
  for (std::size_t at = 0; at < s.size();) {
    while (at < s.size() && s[at] == '/') ++at;
    if (at == s.size()) {
      trailing = true;  // ended with a separator
      break;
    }
    std::size_t end = s.find('/', at);
    if (end == std::string::npos) end = s.size();
    std::string_view part(s.data() + at, end - at);
    at = end;
    trailing = false;
    if (part == ".") {
      trailing = true;
    } else if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      trailing = true;
    } else {
      parts.push_back(part);
    }
  }
  // Only separators ("//"): libstdc++ keeps two; such a path never names a file of a book.
  if (parts.empty() && s.size() > 1 && s.find_first_not_of('/') == std::string::npos)
    return path.lexically_normal();
  std::string out;
  out.reserve(s.size());
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  if (out.empty() || trailing) out += '/';
  return fs::path(std::move(out));
}

ConfinedPath PathGuard::confine(const fs::path& path) {
  fs::path lexical = lexically_normal(path.is_absolute() ? path : root_ / path);
  if (!inside(lexical) && lexical != root_) return {{}, "is outside the book", {}};
  // The folder and the name, split at the last separator of the normal form (as parent_path() and
  // filename() would, without splitting the path into components).
  const std::string& ls = lexical.native();
  const std::size_t slash = ls.rfind('/');
  fs::path dir = canonical_dir(slash == 0 ? fs::path("/") : fs::path(ls.substr(0, slash)));
  fs::path full = dir / ls.substr(slash + 1);
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
