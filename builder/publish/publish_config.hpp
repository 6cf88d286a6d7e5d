// book.toml's `[publish]` table: how a push to main becomes a release (its tag and title, stamped with
// the date and time in a time zone; which files ship) and where CI gets bookbuild from (built from
// source at a commit, or a .deb checked against its SHA-256). Only `init --workflow` reads it, to
// write these choices into the book workflow; nothing a build writes depends on them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::publish {

// Where the book's CI gets the bookbuild it builds with.
struct ToolSource {
  enum class Kind {
    Git,   // `git` at `commit`, built from source (the commit is the check: git names content by hash)
    Self,  // the book's own repository holds the tool (`bookbuild-git = "."`): built at the book's commit
    Deb,   // `deb`, installed after `sha256sum -c` against `sha256`
  };
  Kind kind = Kind::Git;
  std::string url;     // Git: an https:// repository; Deb: an https:// .deb
  std::string commit;  // Git: 40 hex digits
  std::string sha256;  // Deb: 64 hex digits
};

struct Settings {
  std::string tag = "book-%Y%m%d-%H%M%S";             // `date` format: the release's tag
  std::string title = "%Y-%m-%d %H:%M";               // `date` format: the release's title
  std::string time_zone = "UTC";                      // the zone the date and time are read in (tz database)
  std::vector<std::string> assets = {"pdf", "epub"};  // what ships of each edition
  bool build_json = false;                            // build.json ships too
  ToolSource tool;
};

// The settings of `cfg`'s book.toml (the defaults for what it does not set; the real book's own
// choices for its layout without book.toml, docs/publishing.md). The tool source defaults to this
// bookbuild's repository at the commit it was built from (`own_commit`, 40 hex digits, or "" when
// unknown: then book.toml must name one). Problems go to `diags` at their place; nullopt when any.
std::optional<Settings> read_settings(const book::Config& cfg, const std::string& own_commit,
                                      Diagnostics& diags);

// The repository bookbuild is developed in: the default `bookbuild-git`.
inline constexpr const char* kToolRepository = "https://github.com/bookbuild/bookbuild";

}  // namespace bb::publish
