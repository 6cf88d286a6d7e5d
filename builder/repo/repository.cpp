// The book's repository: the work tree found by looking for `.git` (no library), then HEAD's commit and
// its committer time read with libgit2 in the git module (git_module.cpp), which is loaded only for a
// book inside a work tree.
#include "repo/repository.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "inputs/inputs.hpp"
#include "modules/modules.hpp"
#include "repo/git_module.h"
#include "text/url.hpp"

namespace bb::repo {

namespace fs = std::filesystem;

namespace {

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

// HEAD's commit and its time, read by the git module. A module that cannot be loaded is an error of
// the installation (std::runtime_error, reported by main), not a book without a commit.
void read_head(const fs::path& work_tree, Repository& r, bool& opened) {
  std::string error;
  auto head = reinterpret_cast<bookbuild_git_head_fn>(
      modules::module_symbol(modules::Module::Git, "bookbuild_git_head_v1", error));
  if (!head) throw std::runtime_error(error);
  char hex[41] = "";
  long long time = -1;
  auto note = [](void*, const char* path) { inputs::note_file(std::string_view(path)); };
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
  if (url.starts_with("git@")) {
    auto colon = url.find(':');
    if (colon != std::string::npos) url = "https://" + url.substr(4, colon - 4) + "/" + url.substr(colon + 1);
  }
  return url;
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
