// Revisions of the book read with libgit2 (repo/revision_tree.hpp): a name resolved to its commit, the
// merge-base of a pull request, and the book's folder at a commit written from its blobs.
#include "repo/revision_tree.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <system_error>
#include <utility>
#include <vector>

#include "repo/git_handles.hpp"

namespace bb::repo {

namespace fs = std::filesystem;

namespace {

// The repository around the book and the book's folder inside its work tree ("" at the top level).
struct Opened {
  RepoPtr repo;
  fs::path book_inside;
};

std::optional<Opened> open_around(const fs::path& book_root, std::string& error) {
  init_libgit2();
  std::error_code ec;
  const fs::path book = fs::weakly_canonical(book_root, ec);
  auto work_tree = find_work_tree(book);
  if (!work_tree) {
    error = "the book at " + book_root.string() + " is not in a git repository";
    return std::nullopt;
  }
  Opened o{open(*work_tree), book.lexically_relative(fs::weakly_canonical(*work_tree, ec))};
  if (!o.repo) {
    error = "cannot open the git repository at " + work_tree->string();
    return std::nullopt;
  }
  if (o.book_inside == ".") o.book_inside.clear();
  return o;
}

std::string hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

std::string last_git_error() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown error";
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

// Writes `tree` into `dir`, counting bytes into `total`.
bool write_tree(git_repository* repo, const git_tree* tree, const fs::path& dir, std::uint64_t& total,
                std::string& error) {
  const std::size_t n = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    const std::string name = git_tree_entry_name(e);
    if (!safe_name(name)) continue;
    const git_filemode_t mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_TREE) {
      git_tree* sub_raw = nullptr;
      if (git_tree_lookup(&sub_raw, repo, git_tree_entry_id(e)) != 0) {
        error = "cannot read the folder " + (dir / name).string() + ": " + last_git_error();
        return false;
      }
      TreePtr sub(sub_raw);
      std::error_code ec;
      fs::create_directory(dir / name, ec);
      if (ec || !write_tree(repo, sub.get(), dir / name, total, error)) {
        if (error.empty()) error = "cannot write " + (dir / name).string() + ": " + ec.message();
        return false;
      }
    } else if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
      git_blob* blob_raw = nullptr;
      if (git_blob_lookup(&blob_raw, repo, git_tree_entry_id(e)) != 0) {
        error = "cannot read the file " + name + ": " + last_git_error();
        return false;
      }
      BlobPtr blob(blob_raw);
      const auto size = static_cast<std::uint64_t>(git_blob_rawsize(blob.get()));
      total += size;
      if (total > BookAtRevision::kMaxBytes) {
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

}  // namespace

std::optional<Revision> resolve_revision(const fs::path& book_root, const std::string& spec,
                                         std::string& error) {
  auto o = open_around(book_root, error);
  if (!o) return std::nullopt;
  auto oid = commit_of(o->repo.get(), spec);
  if (!oid) {
    error = "`" + spec + "` names no commit of the repository";
    return std::nullopt;
  }
  return Revision{spec, hex(*oid)};
}

std::optional<Revision> default_base(const fs::path& book_root, std::string& error) {
  auto o = open_around(book_root, error);
  if (!o) return std::nullopt;
  git_repository* repo = o->repo.get();
  auto head = commit_of(repo, "HEAD");
  if (!head) {
    error = "the repository has no commit yet";
    return std::nullopt;
  }
  std::vector<std::string> candidates;
  if (const char* base = std::getenv("GITHUB_BASE_REF"); base && *base)
    candidates.push_back(std::string("origin/") + base), candidates.emplace_back(base);
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "refs/remotes/origin/HEAD") == 0) {
    RefPtr ref(raw);
    if (git_reference_type(ref.get()) == GIT_REFERENCE_SYMBOLIC) {
      std::string target = git_reference_symbolic_target(ref.get());
      if (target.starts_with("refs/remotes/")) candidates.push_back(target.substr(13));
    }
  }
  for (const char* name : {"origin/main", "main", "origin/master", "master"}) candidates.emplace_back(name);
  for (const auto& name : candidates) {
    auto branch = commit_of(repo, name);
    if (!branch) continue;
    git_oid base;
    if (git_merge_base(&base, repo, &*head, &*branch) != 0) continue;
    return Revision{"merge-base of HEAD and " + name, hex(base)};
  }
  error = "no default branch to compare with (tried origin/HEAD, main, master): name the base revision";
  return std::nullopt;
}

std::optional<BookAtRevision> BookAtRevision::read(const fs::path& book_root, const Revision& revision,
                                                   std::string& error) {
  auto o = open_around(book_root, error);
  if (!o) return std::nullopt;
  git_oid oid;
  git_commit* commit_raw = nullptr;
  if (git_oid_fromstr(&oid, revision.commit.c_str()) != 0 ||
      git_commit_lookup(&commit_raw, o->repo.get(), &oid) != 0) {
    error = "cannot read commit " + revision.commit;
    return std::nullopt;
  }
  CommitPtr commit(commit_raw);
  git_tree* tree_raw = nullptr;
  if (git_commit_tree(&tree_raw, commit.get()) != 0) {
    error = "cannot read the tree of commit " + revision.commit;
    return std::nullopt;
  }
  TreePtr tree(tree_raw);
  if (!o->book_inside.empty()) {
    git_tree_entry* entry_raw = nullptr;
    if (git_tree_entry_bypath(&entry_raw, tree.get(), o->book_inside.generic_string().c_str()) != 0) {
      error = "the book's folder " + o->book_inside.generic_string() + " is not in " + revision.spec;
      return std::nullopt;
    }
    std::unique_ptr<git_tree_entry, void (*)(git_tree_entry*)> entry(entry_raw, git_tree_entry_free);
    git_tree* sub = nullptr;
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE ||
        git_tree_lookup(&sub, o->repo.get(), git_tree_entry_id(entry.get())) != 0) {
      error = "the book's folder " + o->book_inside.generic_string() + " is not a folder in " + revision.spec;
      return std::nullopt;
    }
    tree.reset(sub);
  }
  std::string pattern = (fs::temp_directory_path() / "bookbuild-diff-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    error = "cannot create a temporary folder";
    return std::nullopt;
  }
  BookAtRevision at;
  at.folder_ = pattern;
  at.root_ = at.folder_ / "book";
  at.revision_ = revision;
  std::error_code ec;
  fs::create_directory(at.root_, ec);
  std::uint64_t total = 0;
  if (ec || !write_tree(o->repo.get(), tree.get(), at.root_, total, error)) {
    if (error.empty()) error = "cannot write " + at.root_.string();
    return std::nullopt;
  }
  return at;
}

BookAtRevision::BookAtRevision(BookAtRevision&& other) noexcept
    : folder_(std::exchange(other.folder_, {})),
      root_(std::move(other.root_)),
      revision_(std::move(other.revision_)) {}

BookAtRevision::~BookAtRevision() {
  if (folder_.empty()) return;
  std::error_code ec;
  fs::remove_all(folder_, ec);
}

}  // namespace bb::repo
