// libgit2 for the repository readers of this folder: owning handles, the one set-up of the library
// (kept away from every configuration outside the repository), and the repository opened alone.
#pragma once

#include <git2.h>

#include <filesystem>
#include <memory>
#include <optional>

namespace bb::repo {

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
struct BlobFree {
  void operator()(git_blob* b) const { git_blob_free(b); }
};
struct ObjectFree {
  void operator()(git_object* o) const { git_object_free(o); }
};
using RepoPtr = std::unique_ptr<git_repository, RepoFree>;
using OdbPtr = std::unique_ptr<git_odb, OdbFree>;
using RefPtr = std::unique_ptr<git_reference, RefFree>;
using CommitPtr = std::unique_ptr<git_commit, CommitFree>;
using TreePtr = std::unique_ptr<git_tree, TreeFree>;
using BlobPtr = std::unique_ptr<git_blob, BlobFree>;
using ObjectPtr = std::unique_ptr<git_object, ObjectFree>;

// Once per process: libgit2 set up, with no system, global or XDG configuration and no owner check.
void init_libgit2();

// The nearest folder at or above `start` holding `.git` (each one looked for is noted as an input).
std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start);

// Opens the repository of `work_tree` alone: no search upwards, no environment, and an object database
// of its own objects folder (loose objects and packs) without the alternates. Null when it cannot.
RepoPtr open(const std::filesystem::path& work_tree);

}  // namespace bb::repo
