// Live patching of the dev server's site: what changed between two renderings of the site is
// written into the live folder, and each changed page's blocks become a patch for its open copies.
#include "server/live_patch.hpp"

#include "output/staging.hpp"

namespace bb::server {

namespace fs = std::filesystem;

namespace {

// A page of the dev server cut at its block markers (writers/html.cpp): the blocks, and everything
// else — head, sidebar, table of contents, pager — which a patch requires to be unchanged. Between
// two blocks there is only the marker and white space; anything else makes the page `irregular`.
struct MarkedPage {
  struct Block {
    std::string_view hash, html;
  };
  std::vector<Block> blocks;
  std::string_view head, tail;
  bool irregular = false;
};

MarkedPage cut_at_markers(std::string_view page) {
  static constexpr std::string_view marker = "<!--bb-->", open = "<div class=\"bb-block\" data-h=\"";
  MarkedPage out;
  for (std::size_t pos = 0;;) {
    std::size_t end = page.find(marker, pos);
    std::string_view piece =
        page.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    std::size_t at = piece.find(open);
    if (end == std::string_view::npos || at == std::string_view::npos ||
        piece.size() < at + open.size() + 16) {
      // Past the last block: the rest of the page (or a page without blocks).
      out.irregular |= end != std::string_view::npos;
      out.tail = page.substr(pos);
      if (out.blocks.empty()) out.head = page.substr(0, pos);
      return out;
    }
    std::string_view before = piece.substr(0, at);
    if (out.blocks.empty())
      out.head = page.substr(0, pos + at);
    else if (before.find_first_not_of(" \n") != std::string_view::npos)
      out.irregular = true;
    out.blocks.push_back({piece.substr(at + open.size(), 16), piece.substr(at)});
    pos = end + marker.size();
  }
}

}  // namespace

std::optional<std::string> block_patch(std::string_view before, std::string_view after, std::size_t limit) {
  MarkedPage a = cut_at_markers(before), b = cut_at_markers(after);
  if (a.blocks.empty() || b.blocks.empty() || a.irregular || b.irregular || a.head != b.head ||
      a.tail != b.tail)
    return std::nullopt;
  std::size_t p = 0, q = 0;
  while (p < a.blocks.size() && p < b.blocks.size() && a.blocks[p].hash == b.blocks[p].hash) ++p;
  while (q < a.blocks.size() - p && q < b.blocks.size() - p &&
         a.blocks[a.blocks.size() - 1 - q].hash == b.blocks[b.blocks.size() - 1 - q].hash)
    ++q;
  std::string gone, html;
  for (std::size_t k = p; k < a.blocks.size() - q; ++k) (gone += gone.empty() ? "" : " ") += a.blocks[k].hash;
  for (std::size_t k = p; k < b.blocks.size() - q; ++k) html += b.blocks[k].html;
  // A carriage return would end a line of the event stream (the HTML of a page never needs one).
  if (html.size() > limit || html.find('\r') != std::string::npos) return std::nullopt;
  return std::to_string(a.blocks.size()) + " " + std::to_string(p) + " " + std::to_string(q) + "\n" + gone +
         "\n" + html;
}

std::vector<std::string> update_pages(site::SiteFiles& files, site::SiteFiles part, const fs::path& out,
                                      std::map<std::string, std::string>* patches,
                                      const PatchesReady& ready) {
  // The files the pages show first: a patched page may ask for a new figure at once.
  for (auto& [rel, src] : part.copied) {
    auto it = files.copied.find(rel);
    if (it != files.copied.end() && it->second == src && fs::exists(out / rel)) continue;
    fs::create_directories((out / rel).parent_path());
    output::link_or_copy(src, out / rel);
    files.copied[rel] = src;
  }
  std::vector<std::string> changed;
  std::vector<std::pair<const std::string*, std::string*>> writes;  // path, content
  for (auto& [rel, content] : part.generated) {
    std::string& now = files.generated[rel];
    if (now == content && fs::exists(out / rel)) continue;
    if (patches && rel.ends_with(".html"))
      if (auto patch = block_patch(now, content)) (*patches)[rel] = std::move(*patch);
    now = std::move(content);
    writes.emplace_back(&rel, &now);
    if (rel.ends_with(".html")) changed.push_back(rel);
  }
  // The open pages are patched before the disk is written: nothing in a patch is read from there.
  if (patches && ready) ready(*patches);
  for (const auto& [rel, content] : writes) {
    try {
      fs::create_directories((out / *rel).parent_path());
      output::write_file_atomic(out / *rel, *content);
    } catch (...) {
      files.generated.erase(*rel);  // not on disk: the next update writes it
      throw;
    }
  }
  return changed;
}

std::vector<std::string> update_site(const site::SiteFiles& previous, const site::SiteFiles& next,
                                     const fs::path& out, std::map<std::string, std::string>* patches) {
  std::vector<std::string> changed;
  for (const auto& [rel, content] : next.generated) {
    auto it = previous.generated.find(rel);
    if (it != previous.generated.end() && it->second == content && fs::exists(out / rel)) continue;
    fs::create_directories((out / rel).parent_path());
    output::write_file_atomic(out / rel, content);
    if (patches && it != previous.generated.end() && rel.ends_with(".html"))
      if (auto patch = block_patch(it->second, content)) (*patches)[rel] = std::move(*patch);
    if (rel.ends_with(".html")) changed.push_back(rel);
  }
  for (const auto& [rel, src] : next.copied) {
    auto it = previous.copied.find(rel);
    std::error_code ec;
    bool same = it != previous.copied.end() && fs::exists(out / rel) &&
                fs::last_write_time(src, ec) <= fs::last_write_time(out / rel, ec) &&
                fs::file_size(src, ec) == fs::file_size(out / rel, ec);
    if (same) continue;
    fs::create_directories((out / rel).parent_path());
    output::link_or_copy(src, out / rel);
    if (rel.starts_with("assets/")) changed.push_back("*");
  }
  std::error_code ec;
  for (const auto& [rel, content] : previous.generated)
    if (!next.generated.count(rel)) fs::remove(out / rel, ec);
  for (const auto& [rel, src] : previous.copied)
    if (!next.copied.count(rel)) fs::remove(out / rel, ec);
  return changed;
}

}  // namespace bb::server
