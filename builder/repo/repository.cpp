// Reading the book's git repository with libgit2: HEAD's commit and its committer time, in a work
// tree, a linked work tree (git-worktree(1)) or a submodule. libgit2 is kept to the repository: no
// system, global or XDG configuration, no alternates (objects/info/alternates may name any folder), no
// environment (GIT_DIR and the like), and nothing that talks to a remote.
#include "repo/repository.hpp"

#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "inputs/inputs.hpp"
#include "repo/git_handles.hpp"
#include "text/url.hpp"

namespace bb::repo {

namespace fs = std::filesystem;

namespace {
struct RemoteFree {
  void operator()(git_remote* r) const { git_remote_free(r); }
};
using RemotePtr = std::unique_ptr<git_remote, RemoteFree>;
}  // namespace

// Once per process: libgit2 set up, and kept away from every configuration outside the repository.
// The owner check (safe.directory) is off: it guards commands that run programs named in a
// repository's configuration, and nothing here runs anything; a book checked out by another user
// keeps its "view source" links.
void init_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    for (int level : {GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG,
                      GIT_CONFIG_LEVEL_GLOBAL})
      git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, "");
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
  });
}

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

// Opens the repository of `work_tree` alone: no search upwards, no environment, and an object
// database of its own objects folder (loose objects and packs) without the alternates.
RepoPtr open(const fs::path& work_tree) {
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, work_tree.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0)
    return nullptr;
  RepoPtr repo(raw);
  const fs::path objects = fs::path(git_repository_commondir(raw)) / "objects";
  git_odb* odb_raw = nullptr;
  if (git_odb_new(&odb_raw) != 0) return nullptr;
  OdbPtr odb(odb_raw);
  git_odb_backend* loose = nullptr;
  git_odb_backend* packed = nullptr;
  if (git_odb_backend_loose(&loose, objects.c_str(), -1, 0, 0, 0) != 0) return nullptr;
  if (git_odb_add_backend(odb.get(), loose, 1) != 0) {
    loose->free(loose);
    return nullptr;
  }
  if (git_odb_backend_pack(&packed, objects.c_str()) != 0) return nullptr;
  if (git_odb_add_backend(odb.get(), packed, 2) != 0) {
    packed->free(packed);
    return nullptr;
  }
  git_repository_set_odb(raw, odb.get());  // the repository takes its own reference
  return repo;
}

namespace {

// Notes the files HEAD's commit is named by: HEAD, the branch it points to (in the work tree's own
// git folder or the common one) and packed-refs.
void note_head(git_repository* repo) {
  const fs::path git_dir = git_repository_path(repo), common = git_repository_commondir(repo);
  inputs::note_file(git_dir / "HEAD");
  inputs::note_file(common / "packed-refs");
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "HEAD") != 0) return;
  RefPtr head(raw);
  if (git_reference_type(raw) != GIT_REFERENCE_SYMBOLIC) return;
  const std::string target = git_reference_symbolic_target(raw);
  inputs::note_file(git_dir / target);
  inputs::note_file(common / target);
}

// HEAD's commit, and its committer time when the commit can be read; nothing when HEAD names no
// commit (an unborn branch).
void read_head(git_repository* repo, Repository& r) {
  note_head(repo);
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, "HEAD") != 0) return;
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  r.commit = hex;
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) != 0) return;
  CommitPtr commit(raw);
  if (git_time_t t = git_commit_time(raw); t >= 0) r.commit_time = static_cast<std::time_t>(t);
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
  init_libgit2();
  RepoPtr repo = open(*work_tree);
  if (!repo) return r;
  r.toplevel = *work_tree;
  read_head(repo.get(), r);
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
  init_libgit2();
  RepoPtr repo = open(*work_tree);
  if (!repo) return {};
  inputs::note_file(fs::path(git_repository_commondir(repo.get())) / "config");
  git_strarray names{};
  if (git_remote_list(&names, repo.get()) != 0) return {};
  std::string chosen;
  for (std::size_t i = 0; i < names.count; ++i)
    if (std::strcmp(names.strings[i], "origin") == 0 || names.count == 1) chosen = names.strings[i];
  git_strarray_dispose(&names);
  if (chosen.empty()) return {};
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, repo.get(), chosen.c_str()) != 0) return {};
  RemotePtr remote(raw);
  const char* url = git_remote_url(raw);
  if (!url) return {};
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
