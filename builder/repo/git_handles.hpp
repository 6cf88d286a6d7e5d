// libgit2 inside the git module (bookbuild_git.so: git_module.cpp, git_revision_module.cpp), and only
// there: owning handles, and the repository opened alone. The executable and the folders' libraries
// never include this; they call the module through repo/git_module.h.
#pragma once

#include <git2.h>

#include <memory>
#include <string>

namespace bb::repo::git {

struct RepoFree {
  void operator()(git_repository* r) const { git_repository_free(r); }
};
struct OdbFree {
  void operator()(git_odb* o) const { git_odb_free(o); }
};
struct RefFree {
  void operator()(git_reference* r) const { git_reference_free(r); }
};
struct CommitFree {
  void operator()(git_commit* c) const { git_commit_free(c); }
};
struct TreeFree {
  void operator()(git_tree* t) const { git_tree_free(t); }
};
struct TreeEntryFree {
  void operator()(git_tree_entry* e) const { git_tree_entry_free(e); }
};
struct BlobFree {
  void operator()(git_blob* b) const { git_blob_free(b); }
};
struct ObjectFree {
  void operator()(git_object* o) const { git_object_free(o); }
};
struct RemoteFree {
  void operator()(git_remote* r) const { git_remote_free(r); }
};
using RepoPtr = std::unique_ptr<git_repository, RepoFree>;
using OdbPtr = std::unique_ptr<git_odb, OdbFree>;
using RefPtr = std::unique_ptr<git_reference, RefFree>;
using CommitPtr = std::unique_ptr<git_commit, CommitFree>;
using TreePtr = std::unique_ptr<git_tree, TreeFree>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, TreeEntryFree>;
using BlobPtr = std::unique_ptr<git_blob, BlobFree>;
using ObjectPtr = std::unique_ptr<git_object, ObjectFree>;
using RemotePtr = std::unique_ptr<git_remote, RemoteFree>;

// Opens the repository of `work_tree` alone: no search upwards, no environment, and an object database
// of its own objects folder (loose objects and packs) without the alternates. Null when it cannot.
// libgit2 itself was set up when the module was loaded (bookbuild_module_init in git_module.cpp): no
// system, global or XDG configuration, no owner check.
RepoPtr open(const char* work_tree);

// libgit2's message for the last error of this thread.
std::string last_error();

}  // namespace bb::repo::git
