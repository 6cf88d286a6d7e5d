// Path confinement with a per-folder cache of canonical paths (one lstat per file and per new folder,
// not one per path component, keeps resolving a chapter's hundreds of links cheap).
#include "book/paths.hpp"

#include "inputs/inputs.hpp"

#include <sys/stat.h>

#include <mutex>
#include <optional>
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

namespace {

// The normal form of an absolute path, on its bytes ([fs.path.generic]: separators collapsed, `.`
// dropped, `name/..` dropped, `..` at the root dropped; a trailing separator kept when the path had
// one or its last component was `.` or `..`). nullopt for a path of separators only ("//", which
// libstdc++ keeps as two and no book file has): the caller asks lexically_normal() itself.
std::optional<std::string> normal_bytes(std::string_view s) {
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
  if (parts.empty() && s.size() > 1 && s.find_first_not_of('/') == std::string::npos) return std::nullopt;
  std::string out;
  out.reserve(s.size());
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  if (out.empty() || trailing) out += '/';
  return out;
}

// `dir` + "/" + `name`, without doubling the root's separator.
std::string join(const std::string& dir, std::string_view name) {
  std::string out = dir;
  if (!out.ends_with('/')) out += '/';
  out += name;
  return out;
}

bool is_symlink(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace

// Every path given here is absolute and lexically normal (no `.` or `..` component, no doubled
// separator), as is the root: then "inside" is "the root itself, or the root and a separator before
// the rest", a comparison of bytes, where lexically_relative would split both paths into components
// (most of the cost of resolving a chapter's links).
bool PathGuard::inside(std::string_view s) const {
  const std::string& r = root_.native();
  if (!s.starts_with(r)) return false;
  if (s.size() == r.size() || r.ends_with('/')) return true;
  return s[r.size()] == '/';
}

// A folder inside the root is its canonical parent plus its own name, unless that name is a symbolic
// link, which is resolved in full: one lstat per folder the guard has not seen, where
// weakly_canonical would look at every component of every new folder again. On the folders' bytes:
// a std::filesystem::path splits itself into components whenever it is made.
std::string PathGuard::canonical_dir(const std::string& dir) {
  if (dir == root_.native()) return dir;
  {
    std::shared_lock lock(mutex_);
    if (auto it = dirs_.find(dir); it != dirs_.end()) return it->second;
  }
  std::error_code ec;
  std::string c;
  if (inside(dir)) {
    const std::size_t slash = dir.rfind('/');
    c = join(canonical_dir(slash == 0 ? std::string("/") : dir.substr(0, slash)),
             std::string_view(dir).substr(slash + 1));
    inputs::note_file(dir);  // a folder that becomes a link elsewhere changes what is inside the book
    if (is_symlink(c)) {
      fs::path resolved = fs::weakly_canonical(c, ec);
      if (!ec) c = resolved.native();
    }
  } else {
    fs::path resolved = fs::weakly_canonical(dir, ec);
    c = ec ? dir : resolved.native();
  }
  std::unique_lock lock(mutex_);
  dirs_.emplace(dir, c);
  return c;
}

fs::path lexically_normal(const fs::path& path) {
  const std::string& s = path.native();
  if (s.empty() || s.front() != '/') return path.lexically_normal();
  auto normal = normal_bytes(s);
  return normal ? fs::path(std::move(*normal)) : path.lexically_normal();
}

std::string join_path(std::string_view base, std::string_view relative) {
  if (base.empty() || relative.starts_with('/')) return std::string(relative);
  std::string out(base);
  if (!out.ends_with('/')) out += '/';
  out += relative;
  return out;
}

std::string normal_form(const std::string& path) {
  if (path.empty() || path.front() != '/') return fs::path(path).lexically_normal().native();
  auto normal = normal_bytes(path);
  return normal ? std::move(*normal) : fs::path(path).lexically_normal().native();
}

ConfinedPath PathGuard::confine(const fs::path& path) {
  return confine_bytes(path.native());
}

const ConfinedPath& PathGuard::confine_bytes(std::string_view path) {
  static const ConfinedPath outside{{}, "is outside the book", {}};
  const std::string joined = path.starts_with('/') ? std::string(path) : join(root_.native(), path);
  std::optional<std::string> normal = normal_bytes(joined);
  const std::string lexical = normal ? std::move(*normal) : fs::path(joined).lexically_normal().native();
  if (!inside(lexical) && lexical != root_.native()) return outside;
  {
    // Asked before in this run (a chapter links to the same file many times, the chapters of an
    // edition to the same files): the answer, and its notes as an input of the run, stand.
    std::shared_lock lock(mutex_);
    if (auto it = paths_.find(lexical); it != paths_.end()) return it->second;
  }
  ConfinedPath answer = confine_lexical(lexical);
  std::unique_lock lock(mutex_);
  return paths_.try_emplace(lexical, std::move(answer)).first->second;
}

// confine_bytes for a lexical path (absolute, normal, inside the root or the root), looked at on disk.
ConfinedPath PathGuard::confine_lexical(const std::string& lexical) {
  // The folder and the name, split at the last separator of the normal form (as parent_path() and
  // filename() would, without splitting the path into components).
  const std::size_t slash = lexical.rfind('/');
  // What was found here is an input of the run: the file (or that it is missing) and its folder.
  inputs::note_file(lexical);
  inputs::note_file(std::string_view(lexical).substr(0, std::max<std::size_t>(slash, 1)));
  fs::path full = join(canonical_dir(slash == 0 ? std::string("/") : lexical.substr(0, slash)),
                       std::string_view(lexical).substr(slash + 1));
  std::error_code ec;
  fs::file_status status = fs::symlink_status(full, ec);
  if (fs::is_symlink(status)) {
    full = fs::weakly_canonical(full, ec);
    if (ec || !inside(full.native())) return {{}, "is a symbolic link to a file outside the book", {}};
    status = fs::status(full, ec);
  }
  if (!inside(full.native()) && full != root_)
    return {{}, "is inside a folder that links outside the book", {}};
  return {std::move(full), {}, status};
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
