// The book's repository, looked up once per build: the git top level, the commit HEAD names, its
// time, and the web address of the repository. Read with libgit2 in the git module (git_module.h) — no
// git process, no shell.
#pragma once

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb::repo {

struct Repository {
  std::filesystem::path toplevel;          // the work tree holding the book; the book root outside git
  std::string commit;                      // HEAD's 40-hex commit, or "" when it cannot be read
  std::optional<std::time_t> commit_time;  // the committer time of `commit`
  std::string web_url;                     // "https://github.com/o/n" (book.toml `repository`), or ""

  // The commit links are pinned to: `commit`, or "HEAD" when there is none.
  [[nodiscard]] std::string revision() const { return commit.empty() ? "HEAD" : commit; }
  // The web address of a file or folder (path relative to `toplevel`, `/`-separated) at `revision()`,
  // percent-encoded; "" when the book names no repository URL.
  [[nodiscard]] std::string file_url(const std::string& relative, bool directory = false,
                                     const std::string& fragment = {}) const;
};

// Finds the repository around `book_root` (which need not be its top level). `configured_url` is
// book.toml's `repository`, normalized by normalize_repository_url.
Repository find_repository(const std::filesystem::path& book_root, const std::string& configured_url);

// https://github.com/o/n, from "https://github.com/o/n.git/", "git@github.com:o/n.git",
// "ssh://git@github.com/o/n.git" or "git://github.com/o/n"; "" stays "".
std::string normalize_repository_url(std::string url);

// The web address of the book's Git remote, for a book that is a clone: the book root is the top of a
// work tree whose remote `origin` (else its only remote) has a URL that names a web host, in https or
// ssh form. "" otherwise: no repository, a book in a subfolder of another project's repository (whose
// remote is that project's), a remote that is a local path.
std::string remote_web_url(const std::filesystem::path& book_root);

// SOURCE_DATE_EPOCH (https://reproducible-builds.org/specs/source-date-epoch/), when set and valid.
std::optional<std::time_t> source_date_epoch();

// The time that stamps a reproducible output: SOURCE_DATE_EPOCH, else the commit's time, else the
// newest modification time among `files`.
std::time_t source_time(const Repository& repo, const std::vector<std::filesystem::path>& files);

}  // namespace bb::repo
