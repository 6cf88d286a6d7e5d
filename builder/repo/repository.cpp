// The book's repository: the work tree found by looking for `.git` (no library), then HEAD's commit, its
// committer time and the URL of the Git remote read with libgit2 in the git module (repo/git_module.h),
// which is loaded only for a book inside a work tree. No git process, no shell.
#include "repo/repository.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "inputs/inputs.hpp"
#include "repo/git_calls.hpp"
#include "repo/git_module.h"
#include "text/url.hpp"

namespace bb::repo {

namespace fs = std::filesystem;

// The nearest folder at or above `start` holding `.git` (a folder, or a file naming the git folder
// of a linked work tree or submodule). Each `.git` looked for is noted, so that a repository created
// or removed around the book is a change to the next run.
std::optional<fs::path> find_work_tree(const fs::path& start) {
  std::error_code ec;
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    fs::path dot = dir / ".git";
    inputs::note_file(dot);
    if (fs::exists(dot, ec)) return dir;
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

namespace {

// Notes a file the module read (git_module.h's bookbuild_git_note).
void note(void*, const char* path) {
  inputs::note_file(std::string_view(path));
}

// HEAD's commit and its time, read by the git module. A module that cannot be loaded is an error of
// the installation (git_entry throws), not a book without a commit.
void read_head(const fs::path& work_tree, Repository& r, bool& opened) {
  auto head = git_entry<bookbuild_git_head_fn>("bookbuild_git_head_v1");
  char hex[41] = "";
  long long time = -1;
  opened = head(work_tree.c_str(), hex, &time, note, nullptr) != 0;
  if (!opened) return;
  r.commit = hex;
  if (time >= 0) r.commit_time = static_cast<std::time_t>(time);
}

}  // namespace

std::string Repository::file_url(const std::string& relative, bool directory,
                                 const std::string& fragment) const {
  if (web_url.empty()) return {};
  return web_url + (directory ? "/tree/" : "/blob/") + revision() + "/" +
         text::percent_encode_path(relative) + (fragment.empty() ? "" : "#" + fragment);
}

Repository find_repository(const fs::path& book_root, const std::string& configured_url) {
  Repository r;
  r.web_url = normalize_repository_url(configured_url);
  r.toplevel = book_root;
  auto work_tree = find_work_tree(book_root);
  if (!work_tree) return r;
  std::error_code ec;
  // A `.git` folder makes its parent the top level even when it cannot be read; a `.git` file only
  // when it names a git folder.
  if (fs::is_directory(*work_tree / ".git", ec)) r.toplevel = *work_tree;
  bool opened = false;
  read_head(*work_tree, r, opened);
  if (opened) r.toplevel = *work_tree;
  return r;
}

std::string normalize_repository_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.ends_with(".git")) url.resize(url.size() - 4);
  // ssh://[user@]host[:port]/path and git://host/path name the same repository as https://host/path.
  for (std::string_view scheme : {"ssh://", "git+ssh://", "git://"})
    if (url.starts_with(scheme)) {
      std::string rest = url.substr(scheme.size());
      const auto slash = rest.find('/');
      std::string host = rest.substr(0, slash);
      if (auto at = host.rfind('@'); at != std::string::npos) host.erase(0, at + 1);
      if (auto port = host.find(':'); port != std::string::npos) host.resize(port);
      url = "https://" + host + (slash == std::string::npos ? "" : rest.substr(slash));
      return url;
    }
  // scp-like "[user@]host:owner/name" (git@github.com:o/n): no scheme, a colon before any slash.
  const auto colon = url.find(':'), slash = url.find('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon < slash) &&
      url.find("://") == std::string::npos && url.find('@') != std::string::npos) {
    std::string host = url.substr(0, colon);
    host.erase(0, host.rfind('@') + 1);
    url = "https://" + host + "/" + url.substr(colon + 1);
  }
  return url;
}

std::string remote_web_url(const fs::path& book_root) {
  auto work_tree = find_work_tree(book_root);
  std::error_code ec;
  if (!work_tree || !fs::equivalent(*work_tree, book_root, ec)) return {};
  auto remote = git_entry<bookbuild_git_remote_url_fn>("bookbuild_git_remote_url_v1");
  std::string url;
  auto set = [](void* context, const char* text) { *static_cast<std::string*>(context) = text; };
  if (!remote(work_tree->c_str(), note, set, &url)) return {};
  std::string web = normalize_repository_url(url);
  // Only a web host: a local path or file:// remote has no pages to link to.
  const auto scheme = text::url_scheme(web);
  if ((scheme != "https" && scheme != "http") || web.find('/', web.find("://") + 3) == std::string::npos)
    return {};
  return web;
}

std::optional<std::time_t> source_date_epoch() {
  const char* env = std::getenv("SOURCE_DATE_EPOCH");
  if (!env || !*env || std::strlen(env) > 18 ||
      std::string_view(env).find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return static_cast<std::time_t>(std::stoll(env));
}

std::time_t source_time(const Repository& repo, const std::vector<fs::path>& files) {
  if (auto t = source_date_epoch()) return *t;
  if (repo.commit_time) return *repo.commit_time;
  std::time_t newest = 0;
  for (const auto& f : files) {
    std::error_code ec;
    auto t = fs::last_write_time(f, ec);
    if (ec) continue;
    auto sys =
        std::chrono::time_point_cast<std::chrono::system_clock::duration>(std::chrono::file_clock::to_sys(t));
    newest = std::max(newest, std::chrono::system_clock::to_time_t(sys));
  }
  return newest;
}

}  // namespace bb::repo
