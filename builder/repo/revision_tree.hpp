// A revision of the book read from its repository without touching the work tree: a revision named on
// the command line resolved to its commit, the default base of a pull request (the merge-base with the
// default branch), and the book's folder at a commit written blob by blob into a private folder that
// is removed with it (never a checkout: the user's work tree and index are not touched).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace bb::repo {

// What a revision named: the spec as given ("main", "HEAD~1", a hash) and its 40-hex commit.
struct Revision {
  std::string spec;
  std::string commit;
};

// The commit `spec` names in the repository around `book_root`; nullopt and `error` set when there is
// no repository or the name resolves to no commit.
std::optional<Revision> resolve_revision(const std::filesystem::path& book_root, const std::string& spec,
                                         std::string& error);

// The merge-base of HEAD with the default branch: the branch a pull request targets
// ($GITHUB_BASE_REF on GitHub Actions), else the remote's default (origin/HEAD), else origin/main,
// main, origin/master, master. Its `spec` says which branch it was taken against.
std::optional<Revision> default_base(const std::filesystem::path& book_root, std::string& error);

// The book's folder at a commit, written into a private folder (mode 0700 under the temporary
// folder), removed when this goes. Only regular files and folders are written: symbolic links and
// submodules are left out (a link could point outside the book), and names git would refuse are
// refused. At most `kMaxBytes` in all.
class BookAtRevision {
 public:
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 30;

  static std::optional<BookAtRevision> read(const std::filesystem::path& book_root, const Revision& revision,
                                            std::string& error);
  BookAtRevision(BookAtRevision&& other) noexcept;
  BookAtRevision& operator=(BookAtRevision&&) = delete;
  BookAtRevision(const BookAtRevision&) = delete;
  BookAtRevision& operator=(const BookAtRevision&) = delete;
  ~BookAtRevision();

  // The book's folder as it was at the revision (`<private folder>/book`).
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  [[nodiscard]] const Revision& revision() const { return revision_; }

 private:
  BookAtRevision() = default;
  std::filesystem::path folder_;  // the private folder, removed by the destructor
  std::filesystem::path root_;
  Revision revision_;
};

}  // namespace bb::repo
