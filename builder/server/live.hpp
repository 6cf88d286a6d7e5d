// The live site of `bookbuild site --serve`: serves the last good build, watches everything a page
// depends on, rebuilds what changed (a chapter's page alone when only its text changed, else the
// whole book) and tells the open pages to patch or fetch themselves again.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"
#include "repo/repository.hpp"
#include "site/site.hpp"

namespace bb::server {

// What `site --serve` keeps from one build to the next: parsed chapters (by file time), the calc
// engine with its computed scenarios, and the repository revision.
struct SessionCache {
  book::ParseCache parsed;
  std::optional<filters::Evaluator> evaluator;
  bool evaluator_loaded = false;
  std::optional<repo::Repository> repository;
  void forget_calc() {
    evaluator.reset();
    evaluator_loaded = false;
  }
};

// One loaded and resolved book, as the caller's loader made it (the command line's session).
class Session {
 public:
  virtual ~Session() = default;
  virtual Diagnostics& diags() = 0;
  virtual std::optional<book::Book>& book() = 0;  // empty when the configuration could not be loaded
  virtual filters::Resolution& resolution() = 0;
};

// Where the dev server writes the site it serves: `<out>/.serve`, a folder of its own. Its pages carry
// the live-reload script, so they are not the site to publish, and `bookbuild build` or `site` may
// replace `<out>/site` at any time while the server runs (and the server may rebuild while they run)
// without either seeing the other's files.
inline std::filesystem::path served_dir(const std::filesystem::path& out_dir) {
  return out_dir / ".serve";
}

struct LiveOptions {
  std::filesystem::path book_dir;  // watched; diagnostics are printed relative to it
  std::filesystem::path out_dir;   // the site is written to served_dir(out_dir); not watched
  std::string host = "127.0.0.1";
  int port = 8000;
  bool quiet = false;
  site::SiteOptions site;  // with live_reload; `search` is set per build
  // Loads and resolves the book, reusing (and filling) what the cache holds.
  std::function<std::unique_ptr<Session>(SessionCache&)> load;
};

// One build of the site in memory: the book loaded and resolved (options.load, into `session`), then
// rendered, with or without the search index. None when it had errors (they are in `session`).
std::optional<site::SiteFiles> build_site(const LiveOptions& options, SessionCache& cache, bool search,
                                          std::unique_ptr<Session>& session);

// Serves `files`, the site as `first` built it and as written to served_dir(out_dir), until SIGINT or
// SIGTERM; every change of the book, its templates, assets or calc data rebuilds it. Returns the
// exit code: 1 when the address cannot be listened on.
int serve(const LiveOptions& options, site::SiteFiles files, SessionCache& cache,
          std::unique_ptr<Session> first);

}  // namespace bb::server
