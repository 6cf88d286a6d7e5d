// The git module's part for `bookbuild diff` (git_module.h, repo/revision_tree.hpp): a name resolved to
// its commit, the merge-base of a pull request, and the book's folder at a commit written from its
// blobs into a folder of the caller's (never a checkout: the work tree and the index are not touched).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "repo/git_handles.hpp"
#include "repo/git_module.h"

namespace bb::repo::git {

namespace {

namespace fs = std::filesystem;

void hex(const git_oid& oid, char out[41]) {
  git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

std::optional<git_oid> commit_of(git_repository* repo, const std::string& spec) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, spec.c_str()) != 0) return std::nullopt;
  ObjectPtr obj(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, obj.get(), GIT_OBJECT_COMMIT) != 0) return std::nullopt;
  ObjectPtr commit(peeled);
  return *git_object_id(commit.get());
}

// A tree entry's name that is safe to write as one path component.
bool safe_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name != ".git" &&
         name.find('/') == std::string_view::npos && name.find('\\') == std::string_view::npos;
}

// Writes `tree` into `dir`, counting bytes into `total`, at most `max_bytes`.
bool write_tree(git_repository* repo, const git_tree* tree, const fs::path& dir, std::uint64_t& total,
                std::uint64_t max_bytes, std::string& error) {
  const std::size_t n = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    const std::string name = git_tree_entry_name(e);
    if (!safe_name(name)) continue;
    const git_filemode_t mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_TREE) {
      git_tree* sub_raw = nullptr;
      if (git_tree_lookup(&sub_raw, repo, git_tree_entry_id(e)) != 0) {
        error = "cannot read the folder " + (dir / name).string() + ": " + last_error();
        return false;
      }
      TreePtr sub(sub_raw);
      std::error_code ec;
      fs::create_directory(dir / name, ec);
      if (ec || !write_tree(repo, sub.get(), dir / name, total, max_bytes, error)) {
        if (error.empty()) error = "cannot write " + (dir / name).string() + ": " + ec.message();
        return false;
      }
    } else if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
      git_blob* blob_raw = nullptr;
      if (git_blob_lookup(&blob_raw, repo, git_tree_entry_id(e)) != 0) {
        error = "cannot read the file " + name + ": " + last_error();
        return false;
      }
      BlobPtr blob(blob_raw);
      const auto size = static_cast<std::uint64_t>(git_blob_rawsize(blob.get()));
      total += size;
      if (total > max_bytes) {
        error = "the book at this revision is over 1 GiB; it is not read";
        return false;
      }
      std::ofstream out(dir / name, std::ios::binary);
      out.write(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                static_cast<std::streamsize>(size));
      if (!out.good()) {
        error = "cannot write " + (dir / name).string();
        return false;
      }
    }
    // Symbolic links and submodules are not part of the book's files.
  }
  return true;
}

// The repository of `work_tree`, or null with `error` called.
RepoPtr open_or_say(const char* work_tree, bookbuild_git_text error, void* context) {
  RepoPtr repo = open(work_tree);
  if (!repo) error(context, ("cannot open the git repository at " + std::string(work_tree)).c_str());
  return repo;
}

}  // namespace

}  // namespace bb::repo::git

using namespace bb::repo::git;

extern "C" int bookbuild_git_resolve_v1(const char* work_tree, const char* spec, char out[41],
                                        bookbuild_git_text error, void* context) {
  out[0] = '\0';
  RepoPtr repo = open_or_say(work_tree, error, context);
  if (!repo) return 0;
  auto oid = commit_of(repo.get(), spec);
  if (!oid) {
    error(context, ("`" + std::string(spec) + "` names no commit of the repository").c_str());
    return 0;
  }
  hex(*oid, out);
  return 1;
}

extern "C" int bookbuild_git_default_base_v1(const char* work_tree, const char* base_ref, char out[41],
                                             bookbuild_git_text name, bookbuild_git_text error,
                                             void* context) {
  out[0] = '\0';
  RepoPtr repo = open_or_say(work_tree, error, context);
  if (!repo) return 0;
  auto head = commit_of(repo.get(), "HEAD");
  if (!head) {
    error(context, "the repository has no commit yet");
    return 0;
  }
  std::vector<std::string> candidates;
  if (base_ref && *base_ref)
    candidates.push_back(std::string("origin/") + base_ref), candidates.emplace_back(base_ref);
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo.get(), "refs/remotes/origin/HEAD") == 0) {
    RefPtr ref(raw);
    if (git_reference_type(ref.get()) == GIT_REFERENCE_SYMBOLIC) {
      std::string target = git_reference_symbolic_target(ref.get());
      if (target.starts_with("refs/remotes/")) candidates.push_back(target.substr(13));
    }
  }
  for (const char* fallback : {"origin/main", "main", "origin/master", "master"})
    candidates.emplace_back(fallback);
  for (const auto& candidate : candidates) {
    auto branch = commit_of(repo.get(), candidate);
    if (!branch) continue;
    git_oid base;
    if (git_merge_base(&base, repo.get(), &*head, &*branch) != 0) continue;
    hex(base, out);
    name(context, candidate.c_str());
    return 1;
  }
  error(context,
        "no default branch to compare with (tried origin/HEAD, main, master): name the base revision");
  return 0;
}

extern "C" int bookbuild_git_write_tree_v1(const char* work_tree, const char* commit_hex, const char* inside,
                                           const char* spec, const char* dest, unsigned long long max_bytes,
                                           bookbuild_git_text error, void* context) {
  RepoPtr repo = open_or_say(work_tree, error, context);
  if (!repo) return 0;
  git_oid oid;
  git_commit* commit_raw = nullptr;
  if (git_oid_fromstr(&oid, commit_hex) != 0 || git_commit_lookup(&commit_raw, repo.get(), &oid) != 0) {
    error(context, ("cannot read commit " + std::string(commit_hex)).c_str());
    return 0;
  }
  CommitPtr commit(commit_raw);
  git_tree* tree_raw = nullptr;
  if (git_commit_tree(&tree_raw, commit.get()) != 0) {
    error(context, ("cannot read the tree of commit " + std::string(commit_hex)).c_str());
    return 0;
  }
  TreePtr tree(tree_raw);
  if (*inside) {
    git_tree_entry* entry_raw = nullptr;
    if (git_tree_entry_bypath(&entry_raw, tree.get(), inside) != 0) {
      error(context, ("the book's folder " + std::string(inside) + " is not in " + spec).c_str());
      return 0;
    }
    TreeEntryPtr entry(entry_raw);
    git_tree* sub = nullptr;
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE ||
        git_tree_lookup(&sub, repo.get(), git_tree_entry_id(entry.get())) != 0) {
      error(context, ("the book's folder " + std::string(inside) + " is not a folder in " + spec).c_str());
      return 0;
    }
    tree.reset(sub);
  }
  std::uint64_t total = 0;
  std::string message;
  if (!write_tree(repo.get(), tree.get(), dest, total, max_bytes, message)) {
    if (message.empty()) message = "cannot write " + std::string(dest);
    error(context, message.c_str());
    return 0;
  }
  return 1;
}
