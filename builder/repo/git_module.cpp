// The git module: every libgit2 call of bookbuild (git_module.h). Here: the set-up of libgit2, the
// repository opened alone, HEAD's commit and its committer time, and the URL of the Git remote; the
// revisions read by `bookbuild diff` are in git_revision_module.cpp. libgit2 is kept to the repository:
// no system, global or XDG configuration, no alternates (objects/info/alternates may name any folder), no
// environment (GIT_DIR and the like), and nothing that talks to a remote. Loaded with dlopen by
// repo/repository.cpp and repo/revision_tree.cpp, only when the book lies in a git work tree.
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "repo/git_handles.hpp"
#include "repo/git_module.h"

namespace bb::repo::git {

namespace fs = std::filesystem;

RepoPtr open(const char* work_tree) {
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, work_tree, GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) return nullptr;
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

std::string last_error() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown error";
}

namespace {

// Notes the files HEAD's commit is named by: HEAD, the branch it points to (in the work tree's own
// git folder or the common one) and packed-refs.
void note_head(git_repository* repo, bookbuild_git_note note, void* context) {
  const fs::path git_dir = git_repository_path(repo), common = git_repository_commondir(repo);
  note(context, (git_dir / "HEAD").c_str());
  note(context, (common / "packed-refs").c_str());
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "HEAD") != 0) return;
  RefPtr head(raw);
  if (git_reference_type(raw) != GIT_REFERENCE_SYMBOLIC) return;
  const std::string target = git_reference_symbolic_target(raw);
  note(context, (git_dir / target).c_str());
  note(context, (common / target).c_str());
}

}  // namespace

}  // namespace bb::repo::git

using namespace bb::repo::git;

// Once, when the module is loaded (modules/modules.hpp): libgit2 set up, and kept away from every
// configuration outside the repository. The owner check (safe.directory) is off: it guards commands
// that run programs named in a repository's configuration, and nothing here runs anything; a book
// checked out by another user keeps its "view source" links.
extern "C" void bookbuild_module_init() {
  git_libgit2_init();
  for (int level :
       {GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL})
    git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, "");
  git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
}

// HEAD's commit, and its committer time when the commit can be read; no commit when HEAD names none
// (an unborn branch).
extern "C" int bookbuild_git_head_v1(const char* work_tree, char hex[41], long long* commit_time,
                                     bookbuild_git_note note, void* context) {
  hex[0] = '\0';
  *commit_time = -1;
  RepoPtr repo = open(work_tree);
  if (!repo) return 0;
  note_head(repo.get(), note, context);
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo.get(), "HEAD") != 0) return 1;
  git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &oid);
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo.get(), &oid) != 0) return 1;
  CommitPtr commit(raw);
  if (git_time_t t = git_commit_time(raw); t >= 0) *commit_time = static_cast<long long>(t);
  return 1;
}

// The remote `origin`, else the only one: its URL as configured (repository.cpp makes it a web address).
extern "C" int bookbuild_git_remote_url_v1(const char* work_tree, bookbuild_git_note note,
                                           bookbuild_git_text url, void* context) {
  RepoPtr repo = open(work_tree);
  if (!repo) return 0;
  note(context, (fs::path(git_repository_commondir(repo.get())) / "config").c_str());
  git_strarray names{};
  if (git_remote_list(&names, repo.get()) != 0) return 0;
  std::string chosen;
  for (std::size_t i = 0; i < names.count; ++i)
    if (std::strcmp(names.strings[i], "origin") == 0 || names.count == 1) chosen = names.strings[i];
  git_strarray_dispose(&names);
  if (chosen.empty()) return 0;
  git_remote* raw = nullptr;
  if (git_remote_lookup(&raw, repo.get(), chosen.c_str()) != 0) return 0;
  RemotePtr remote(raw);
  const char* configured = git_remote_url(raw);
  if (!configured) return 0;
  url(context, configured);
  return 1;
}
