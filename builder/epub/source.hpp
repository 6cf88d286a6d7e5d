// Where the book's sources come from: the time that stamps a deterministic EPUB, and the commit
// that links into the repository are pinned to.
#pragma once

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bb::epub {

struct SourceInfo {
  std::time_t time = 0;              // SOURCE_DATE_EPOCH, else the commit's time, else newest file
  std::string commit;                // `git rev-parse HEAD`, or "main" outside a git repository
  std::filesystem::path repository;  // the git top level, or the book root outside a repository
};

// Looks at `root` (the book) with git when it is a repository; `files` are the sources whose newest
// modification time is used when there is neither SOURCE_DATE_EPOCH nor a commit.
SourceInfo source_info(const std::filesystem::path& root, const std::vector<std::filesystem::path>& files);

// SOURCE_DATE_EPOCH (https://reproducible-builds.org/specs/source-date-epoch/), when set and valid.
std::optional<std::time_t> source_date_epoch();

// https://github.com/o/n, from "https://github.com/o/n.git/" or "git@github.com:o/n.git"; "" stays "".
std::string normalize_repository_url(std::string url);

}  // namespace bb::epub
