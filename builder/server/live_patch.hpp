// Live patching of the dev server's site (`bookbuild site --serve`): the files that changed between
// two renderings are written into the live folder, and the pages that changed by blocks get a patch
// their open copies apply without fetching the page again (website/live-reload.js).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "site/site.hpp"

namespace bb::server {

// Writes only what differs from `previous` into the live folder `out` (each file atomically) and
// removes files that are gone. Returns the relative paths of the HTML pages that changed; with
// `patches`, also the block patch (block_patch) of each changed page that has one.
std::vector<std::string> update_site(const site::SiteFiles& previous, const site::SiteFiles& next,
                                     const std::filesystem::path& out,
                                     std::map<std::string, std::string>* patches = nullptr);

// How an open page of the dev server turns from `before` into `after` by replacing blocks (the
// writer's block markers), for website/live-reload.js: "N P Q" (the old page's block count and how
// many blocks at its start and end stay), the hashes of the old blocks that go, and the HTML of the
// new ones, on three lines. None when anything outside the blocks changed (title, contents, table of
// contents) or the new blocks are larger than `limit` bytes: the page is then fetched again.
std::optional<std::string> block_patch(std::string_view before, std::string_view after,
                                       std::size_t limit = 256 * 1024);

// Called with the patches of the pages that changed by blocks, before those pages are written.
using PatchesReady = std::function<void(const std::map<std::string, std::string>&)>;

// Puts the files of `part` (from render_pages) into `files` and, where they differ, into the live
// folder `out`; returns the HTML pages that changed. With `patches`, fills it (block_patch) and calls
// `ready` with it once the copied files are in place and before any page is written, so that open
// pages can be patched without waiting for the disk; the pages without a patch are fetched again,
// so the caller tells them only after this returns.
std::vector<std::string> update_pages(site::SiteFiles& files, site::SiteFiles part,
                                      const std::filesystem::path& out,
                                      std::map<std::string, std::string>* patches = nullptr,
                                      const PatchesReady& ready = {});

}  // namespace bb::server
