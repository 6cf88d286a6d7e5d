// The site's files into its staged folder (site_output.hpp), and write_site (site.hpp).
#include "site/site_output.hpp"

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
