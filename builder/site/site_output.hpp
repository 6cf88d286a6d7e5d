// Writing a rendered site into its staged folder: generated files (hard-linked to the previous build's
// where unchanged) and copied ones, then the swap into place (output::StagedDir).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "figures/memo.hpp"
#include "output/file_record.hpp"
#include "output/staging.hpp"

namespace bb::site {

// Generated files (path relative to the site → content) into the staged folder `staged` of the site
// at `out`.
void write_generated(const std::map<std::string, std::string>& generated, const std::filesystem::path& out,
                     const std::filesystem::path& staged);
// Files copied from the book (path relative to the site → source), linked where the file system allows.
void write_copied(const std::map<std::string, std::filesystem::path>& copied,
                  const std::filesystem::path& staged);
// A site built over its previous build, one batch of files at a time (site::SiteWriter). The files
// are staged aside and swapped in whole (output::StagedDir), so that a failed build leaves the site as
// it was — except when the build changes nothing: then no file is linked into the staged folder, no
// old file unlinked and no folder renamed, and the site is left as it is (the LaTeX folder does the
// same). An unchanged file is therefore only remembered until a changed one is met; from then on the
// files are staged as before. Unchanged: a generated file holding the same bytes, a copied file that
// is already the same inode (copies are hard links). A generated file is compared through the site's
// output::FileRecord: one lstat when the record vouches for the file, else read back as output::holds
// reads it. The record is saved only by a build that leaves the folder as it is; a build that stages
// the files removes it (their links change every file's ctime) and the next build reads them again.
class SiteUpdate {
 public:
  // `settled_ns`: the record's (output::FileRecord), for tests.
  explicit SiteUpdate(const std::filesystem::path& out,
                      std::int64_t settled_ns = output::FileRecord::kSettledNs);
  void add_generated(const std::map<std::string, std::string>& generated);
  // `ids`: identities already taken of some sources (by the same relative path), not examined again.
  void add_copied(const std::map<std::string, std::filesystem::path>& copied,
                  const std::map<std::string, figures::FileId>& ids = {});
  // Swaps the staged site in, or leaves the folder alone when nothing changed and it holds no file the
  // build did not make. Returns false in that case.
  bool commit();

 private:
  void changed();  // the first change: every unchanged file so far is staged
  void stage(const std::string& rel);
  [[nodiscard]] bool holds_only_planned() const;

  std::filesystem::path out_;
  output::StagedDir staged_;
  output::FileRecord record_;
  std::set<std::string> made_;  // folders made in the staged site
  bool changed_ = false;
  std::vector<std::string> waiting_;  // unchanged files not yet staged (while nothing changed)
  std::set<std::string> planned_;     // every file of the site, relative to it
};

// The HTML pages among generated files.
std::size_t count_pages(const std::map<std::string, std::string>& generated);

}  // namespace bb::site
