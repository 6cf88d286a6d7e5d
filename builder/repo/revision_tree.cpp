// Revisions of the book (repo/revision_tree.hpp): a name resolved to its commit, the merge-base of a
// pull request, and the book's folder at a commit written from its blobs. The work tree and the book's
// place in it are found here; libgit2 reads the repository in the git module (repo/git_module.h).
#include "repo/revision_tree.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <cstdlib>
#include <system_error>
#include <utility>

#include "repo/git_calls.hpp"
#include "repo/git_module.h"

namespace bb::repo {

namespace fs = std::filesystem;

namespace {

// The work tree around the book and the book's folder inside it ("" at the top level).
struct Around {
  fs::path work_tree;
  fs::path book_inside;
};

std::optional<Around> find_around(const fs::path& book_root, std::string& error) {
  std::error_code ec;
  const fs::path book = fs::weakly_canonical(book_root, ec);
  auto work_tree = find_work_tree(book);
  if (!work_tree) {
    error = "the book at " + book_root.string() + " is not in a git repository";
    return std::nullopt;
  }
  Around a{*work_tree, book.lexically_relative(fs::weakly_canonical(*work_tree, ec))};
  if (a.book_inside == ".") a.book_inside.clear();
  return a;
}

// The strings a module entry point gives back through its callbacks (git_module.h's bookbuild_git_text).
struct Texts {
  std::string name;
  std::string error;
};
void set_name(void* context, const char* text) {
  static_cast<Texts*>(context)->name = text;
}
void set_error(void* context, const char* text) {
  static_cast<Texts*>(context)->error = text;
}

}  // namespace

std::optional<Revision> resolve_revision(const fs::path& book_root, const std::string& spec,
                                         std::string& error) {
  auto a = find_around(book_root, error);
  if (!a) return std::nullopt;
  auto resolve = git_entry<bookbuild_git_resolve_fn>("bookbuild_git_resolve_v1");
  char hex[41] = "";
  Texts texts;
  if (!resolve(a->work_tree.c_str(), spec.c_str(), hex, set_error, &texts)) {
    error = texts.error;
    return std::nullopt;
  }
  return Revision{spec, hex};
}

std::optional<Revision> default_base(const fs::path& book_root, std::string& error) {
  auto a = find_around(book_root, error);
  if (!a) return std::nullopt;
  auto base = git_entry<bookbuild_git_default_base_fn>("bookbuild_git_default_base_v1");
  char hex[41] = "";
  Texts texts;
  if (!base(a->work_tree.c_str(), std::getenv("GITHUB_BASE_REF"), hex, set_name, set_error, &texts)) {
    error = texts.error;
    return std::nullopt;
  }
  return Revision{"merge-base of HEAD and " + texts.name, hex};
}

std::optional<BookAtRevision> BookAtRevision::read(const fs::path& book_root, const Revision& revision,
                                                   std::string& error) {
  auto a = find_around(book_root, error);
  if (!a) return std::nullopt;
  auto write = git_entry<bookbuild_git_write_tree_fn>("bookbuild_git_write_tree_v1");
  std::string pattern = (fs::temp_directory_path() / "bookbuild-diff-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {  // mode 0700: the private folder
    error = "cannot create a temporary folder";
    return std::nullopt;
  }
  BookAtRevision at;  // removes the folder on every way out but success
  at.folder_ = pattern;
  at.root_ = at.folder_ / "book";
  at.revision_ = revision;
  std::error_code ec;
  fs::create_directory(at.root_, ec);
  if (ec) {
    error = "cannot write " + at.root_.string();
    return std::nullopt;
  }
  Texts texts;
  if (!write(a->work_tree.c_str(), revision.commit.c_str(), a->book_inside.generic_string().c_str(),
             revision.spec.c_str(), at.root_.c_str(), kMaxBytes, set_error, &texts)) {
    error = texts.error;
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
