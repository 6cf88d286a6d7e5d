// The site's files into its staged folder (site_output.hpp), and write_site (site.hpp).
#include "site/site_output.hpp"

#include "output/staging.hpp"
#include "site/site.hpp"

namespace bb::site {

namespace fs = std::filesystem;

void write_generated(const std::map<std::string, std::string>& generated, const fs::path& out,
                     const fs::path& staged) {
  for (const auto& [rel, content] : generated) {
    // A file identical to the one the previous build wrote is linked to it instead of written again:
    // most of a rebuild is unchanged, and creating hundreds of fresh inodes costs more than reading.
    fs::path previous = out / rel;
    fs::path dest = staged / rel;
    if (output::holds(previous, content)) {
      std::error_code ec;
      fs::create_directories(dest.parent_path());
      fs::create_hard_link(previous, dest, ec);
      if (!ec) continue;
    }
    output::write_file(dest, content);
  }
}

void write_copied(const std::map<std::string, fs::path>& copied, const fs::path& staged) {
  for (const auto& [rel, src] : copied) {
    fs::path dest = staged / rel;
    fs::create_directories(dest.parent_path());
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
