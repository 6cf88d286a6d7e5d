// The site's files into its staged folder (site_output.hpp), and write_site (site.hpp).
#include "site/site_output.hpp"

#include <sys/stat.h>

#include <set>
#include <string>

#include "output/staging.hpp"
#include "site/site.hpp"

namespace bb::site {

namespace fs = std::filesystem;

namespace {

// The folders made in the staged site so far: a site's files share a few dozen folders, and asking
// the file system for each file's folder again was a third of a rebuild's stat calls.
class Folders {
 public:
  void make_parent(const fs::path& file) {
    fs::path dir = file.parent_path();
    if (made_.contains(dir.native())) return;
    fs::create_directories(dir);
    made_.insert(dir.native());
  }

 private:
  std::set<std::string> made_;
};

}  // namespace

void write_generated(const std::map<std::string, std::string>& generated, const fs::path& out,
                     const fs::path& staged) {
  Folders folders;
  for (const auto& [rel, content] : generated) {
    // A file identical to the one the previous build wrote is linked to it instead of written again:
    // most of a rebuild is unchanged, and creating hundreds of fresh inodes costs more than reading.
    fs::path previous = out / rel;
    fs::path dest = staged / rel;
    if (output::holds(previous, content)) {
      std::error_code ec;
      folders.make_parent(dest);
      fs::create_hard_link(previous, dest, ec);
      if (!ec) continue;
    }
    output::write_file(dest, content);
  }
}

void write_copied(const std::map<std::string, fs::path>& copied, const fs::path& staged) {
  Folders folders;
  for (const auto& [rel, src] : copied) {
    fs::path dest = staged / rel;
    folders.make_parent(dest);
    output::link_or_copy(src, dest);
  }
}

SiteUpdate::SiteUpdate(const fs::path& out, std::int64_t settled_ns)
    : out_(out), staged_(out), record_(out, settled_ns) {}

void SiteUpdate::stage(const std::string& rel) {
  fs::path dest = staged_.path() / rel;
  fs::path dir = dest.parent_path();
  if (!made_.contains(dir.native())) {
    fs::create_directories(dir);
    made_.insert(dir.native());
  }
  output::link_or_copy(out_ / rel, dest);
}

void SiteUpdate::changed() {
  if (changed_) return;
  changed_ = true;
  record_.drop();  // linking the files into the staged folder changes their ctimes
  for (const auto& rel : waiting_) stage(rel);
  waiting_.clear();
}

void SiteUpdate::add_generated(const std::map<std::string, std::string>& generated) {
  for (const auto& [rel, content] : generated) {
    planned_.insert(rel);
    if (record_.holds(rel, content)) {
      if (changed_)
        stage(rel);
      else
        waiting_.push_back(rel);
      continue;
    }
    changed();
    fs::path dest = staged_.path() / rel;
    made_.insert(dest.parent_path().native());
    output::write_file(dest, content);
  }
}

namespace {

// Whether `here` is the very file `src` (fs::equivalent), with `src`'s identity taken once already when
// `id` is given.
bool same_file(const fs::path& here, const fs::path& src, const figures::FileId* id) {
  std::error_code ec;
  if (!id) return fs::equivalent(here, src, ec) && !ec;
  struct stat st {};
  return ::stat(here.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_dev) == id->device &&
         static_cast<std::uint64_t>(st.st_ino) == id->inode;
}

}  // namespace

void SiteUpdate::add_copied(const std::map<std::string, fs::path>& copied,
                            const std::map<std::string, figures::FileId>& ids) {
  for (const auto& [rel, src] : copied) {
    planned_.insert(rel);
    const auto id = ids.find(rel);
    if (!changed_ && same_file(out_ / rel, src, id == ids.end() ? nullptr : &id->second)) {
      waiting_.push_back(rel);
      continue;
    }
    changed();
    fs::path dest = staged_.path() / rel;
    fs::path dir = dest.parent_path();
    if (!made_.contains(dir.native())) {
      fs::create_directories(dir);
      made_.insert(dir.native());
    }
    output::link_or_copy(src, dest);
  }
}

// True when every file under the site is one of this build's (so that leaving the folder as it is
// leaves nothing stale), and every one of them is there.
bool SiteUpdate::holds_only_planned() const {
  std::set<std::string> folders;
  for (const auto& rel : planned_)
    for (fs::path p = fs::path(rel).parent_path(); !p.empty(); p = p.parent_path())
      folders.insert(p.generic_string());
  std::size_t found = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(out_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(out_).generic_string();
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      if (!folders.contains(rel)) return false;
      continue;
    }
    if (!planned_.contains(rel)) return false;
    ++found;
  }
  return !ec && found == planned_.size();
}

bool SiteUpdate::commit() {
  if (!changed_ && holds_only_planned()) {
    record_.save();  // the files it vouches for stay as they are
    return false;    // the staged folder goes with staged_
  }
  changed();
  staged_.commit();
  return true;
}

std::size_t count_pages(const std::map<std::string, std::string>& generated) {
  std::size_t pages = 0;
  for (const auto& [rel, content] : generated) pages += rel.ends_with(".html");
  return pages;
}

void write_site(const SiteFiles& files, const fs::path& out) {
  output::StagedDir staged(out);
  write_generated(files.generated, out, staged.path());
  write_copied(files.copied, staged.path());
  staged.commit();
}

}  // namespace bb::site
