// The live site of `bookbuild site --serve`: the rebuild after each change (chapters alone, or the
// whole book) and the loop that waits for changes and tells the open pages.
#include "server/live.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>
#include <new>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "diag/changes.hpp"
#include "highlight/highlight.hpp"
#include "server/live_patch.hpp"
#include "server/serve.hpp"
#include "server/watch.hpp"
#include "writers/template.hpp"

namespace bb::server {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_stop = 0;

// With BOOKBUILD_TIMINGS, prints how long each step since the previous one took.
class Laps {
 public:
  void operator()(const char* what) {
    if (!enabled_) return;
    auto t = std::chrono::steady_clock::now();
    std::cerr << "  " << what << ": " << std::chrono::duration<double, std::milli>(t - at_).count()
              << " ms\n";
    at_ = t;
  }

 private:
  bool enabled_ = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
  std::chrono::steady_clock::time_point at_ = std::chrono::steady_clock::now();
};

site::SiteOptions with_search(const LiveOptions& options, bool search) {
  site::SiteOptions so = options.site;
  so.search = search;
  return so;
}

std::string diagnostics_text(Session& s, const LiveOptions& options) {
  std::ostringstream out;
  s.diags().print(out, options.book_dir);
  s.diags().print_summary(out);
  return out.str();
}

// What one build leaves for the next: the resolved book, so that an edit of a chapter's text
// re-reads, resolves and renders that chapter alone (rebuild_chapters).
struct LiveBook {
  std::unique_ptr<Session> session;  // the last good build; null: the next change rebuilds all
  std::map<fs::path, std::pair<std::size_t, std::size_t>> chapters;  // manuscript → (edition, chapter)
  // The diagnostics as last reported: after a rebuild only what changed is printed (diag/changes.hpp).
  std::vector<Diagnostic> last_shown;

  void keep(std::unique_ptr<Session> s) {
    chapters.clear();
    session = std::move(s);
    if (!session || !session->book()) return;
    const auto& editions = session->book()->editions;
    for (std::size_t e = 0; e < editions.size(); ++e)
      for (std::size_t i = 0; i < editions[e].chapters.size(); ++i)
        chapters[fs::weakly_canonical(editions[e].chapters[i].path)] = {e, i};
  }
};

long long epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The changed pages without a patch are told to fetch themselves again.
void fetch_unpatched(DevServer& server, const std::vector<std::string>& pages,
                     const std::map<std::string, std::string>& patches) {
  std::vector<std::string> fetch;
  for (const auto& page : pages)
    if (!patches.count(page)) fetch.push_back(page);
  server.reload(fetch);
}

// Open pages that changed by blocks get those blocks; the others are told to fetch themselves again.
void reload(DevServer& server, const std::vector<std::string>& pages,
            const std::map<std::string, std::string>& patches) {
  for (const auto& page : pages)
    if (auto it = patches.find(page); it != patches.end()) server.patch(page, it->second);
  fetch_unpatched(server, pages, patches);
}

// Prints what a rebuild changed of the book's diagnostics: the new ones, those gone, and the counts;
// nothing when nothing changed, so that a long list of warnings does not bury each save.
void report_changes(Session& session, const LiveOptions& options, LiveBook& live) {
  std::vector<Diagnostic> now = session.diags().all();
  bb::print_changes(std::cerr, diagnostic_changes(live.last_shown, now), now, options.book_dir,
                    options.quiet ? PrintStyle::OneLine : PrintStyle::Full);
  live.last_shown = std::move(now);
}

// After an edit of chapters' text only: each is parsed, resolved and rendered again on its own and
// its page rewritten; the rest of the book stays as the last build left it. False — with nothing
// written — when that is not enough (another file changed, a chapter's targets, ids or title
// changed, an error): the caller then rebuilds everything. The search index and the other pages
// are brought up to date by the full build that follows once the edits pause.
bool rebuild_chapters(const LiveOptions& options, const std::vector<fs::path>& changed,
                      site::SiteFiles& files, SessionCache& cache, DevServer& server, LiveBook& live) {
  if (!live.session || !live.session->book() || live.session->diags().has_errors()) return false;
  static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
  auto t0 = std::chrono::steady_clock::now();
  Laps lap;
  std::vector<std::pair<std::size_t, std::size_t>> chapters;
  for (const auto& f : changed) {
    auto it = live.chapters.find(fs::weakly_canonical(f));
    if (it == live.chapters.end()) return false;
    chapters.push_back(it->second);
  }
  Session& s = *live.session;
  book::Book& book = *s.book();
  auto give_up = [&] {
    live.keep(nullptr);  // half updated: the full build starts afresh
    return false;
  };
  filters::ResolveOptions resolve;
  resolve.evaluate = cache.evaluator ? &*cache.evaluator : nullptr;
  resolve.repository = &s.resolution().repository;
  for (const auto& [e, i] : chapters) {
    book::Chapter& c = book.editions[e].chapters[i];
    const std::string old_title = c.title;
    s.diags().forget(c.path);
    lap("find");
    // Not through the parse cache: storing the tree would copy it, on the way to the page; the
    // full build after the pause parses the chapter for the cache.
    book::reload_chapter(book, e, i, s.diags());
    lap("parse");
    if (!filters::resolve_again(book, s.resolution(), e, i, old_title, s.diags(), resolve)) return give_up();
  }
  if (s.diags().has_errors()) return give_up();
  lap("resolve");
  auto part =
      site::render_pages(book, s.resolution(), with_search(options, false), s.diags(), chapters, &files);
  lap("render");
  if (s.diags().has_errors()) return give_up();
  // Open pages that change by blocks are patched before the pages are written; the others are told
  // to fetch themselves once they are on disk.
  std::map<std::string, std::string> patches;
  auto patch = [&](const std::map<std::string, std::string>& ready) {
    for (const auto& [page, blocks] : ready) server.patch(page, blocks);
    lap("patch");
    if (timings && !ready.empty()) std::cerr << "  patch sent at " << epoch_ms() << '\n';
  };
  auto pages = update_pages(files, std::move(part), served_dir(options.out_dir), &patches, patch);
  lap("write");
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  fetch_unpatched(server, pages, patches);
  if (timings) std::cerr << "  reload sent at " << epoch_ms() << '\n';
  if (!options.quiet)
    std::cerr << "site: " << changed.front().filename().string() << (changed.size() > 1 ? " and others" : "")
              << " changed; its page rebuilt in " << ms << " ms\n";
  report_changes(s, options, live);
  return true;
}

// One rebuild of everything after `changed`: the pages first, so the open page updates at once; the
// search index follows. A failing build leaves `files` (the last good site) as it is.
void rebuild(const LiveOptions& options, const std::vector<fs::path>& changed, site::SiteFiles& files,
             SessionCache& cache, DevServer& server, LiveBook& live) {
  const fs::path out = served_dir(options.out_dir);
  static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
  auto t0 = std::chrono::steady_clock::now();
  live.keep(nullptr);  // one resolved book in memory at a time
  std::unique_ptr<Session> kept;
  // Pages first, so the open page updates at once; the search index follows.
  auto next = build_site(options, cache, /*search=*/false, kept);
  Session& session = *kept;
  if (!next) {
    // The page shows every problem; the terminal the errors it has not shown yet (a failed build
    // stops early: the warnings it did not reach are not gone, so they are not compared).
    std::vector<Diagnostic> now = session.diags().all(), errors;
    for (auto& d : diagnostic_changes(live.last_shown, now).added)
      if (d.severity == Severity::Error) errors.push_back(std::move(d));
    bb::print_changes(std::cerr, {std::move(errors), {}}, now, options.book_dir,
                      options.quiet ? PrintStyle::OneLine : PrintStyle::Full);
    server.failed(diagnostics_text(session, options));
    return;  // keep serving the last good build
  }
  for (const auto& [rel, content] : files.generated)
    if (site::is_search_file(rel)) next->generated[rel] = content;
  next->search_index_bytes = files.search_index_bytes;
  next->search_query_bytes = files.search_query_bytes;
  std::map<std::string, std::string> patches;
  auto pages = update_site(files, *next, out, &patches);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  if (!options.quiet && !changed.empty()) {
    std::string shown = changed.front().filename().string() + (changed.size() > 1 ? " and others" : "");
    std::cerr << "site: " << shown << " changed; rebuilt in " << ms << " ms, " << pages.size()
              << " pages updated\n";
  }
  reload(server, pages, patches);
  if (timings) std::cerr << "  reload sent at " << epoch_ms() << '\n';
  site::SiteFiles searchable = *next;
  site::render_search(*session.book(), with_search(options, true), searchable);
  update_site(*next, searchable, out);
  files = std::move(searchable);
  highlight::save_cache();
  if (timings) std::cerr << "  search index written at " << epoch_ms() << '\n';
  report_changes(session, options, live);
  live.keep(std::move(kept));
}

// A rebuild that threw: whatever went wrong (out of memory, an I/O error, a bug), the server keeps
// serving the last good site and the pages show the error; the parse cache may be half-updated, so
// it starts afresh.
void recover(const std::string& text, SessionCache& cache, DevServer& server, LiveBook& live) {
  std::cerr << text;
  server.failed(text);
  cache.parsed.clear();
  cache.forget_calc();
  live.keep(nullptr);
}

}  // namespace

std::optional<site::SiteFiles> build_site(const LiveOptions& options, SessionCache& cache, bool search,
                                          std::unique_ptr<Session>& session) {
  Laps lap;
  session = options.load(cache);
  if (!session->book() || session->diags().has_errors()) return std::nullopt;
  lap("load and resolve");
  auto files = site::render_site(*session->book(), session->resolution(), with_search(options, search),
                                 session->diags());
  lap("render");
  if (session->diags().has_errors()) return std::nullopt;
  return files;
}

int serve(const LiveOptions& options, site::SiteFiles files, SessionCache& cache,
          std::unique_ptr<Session> first) {
  const fs::path out = served_dir(options.out_dir);
  DevServer server(out, options.host, options.port);
  if (!server.start()) {
    std::cerr << "site: cannot listen on " << options.host << ':' << options.port
              << " (in use? try --port)\n";
    return 1;
  }
  std::cerr << "site: serving http://" << options.host << ':' << options.port << "/  (Ctrl-C to stop)\n";
  if (options.host != "127.0.0.1" && options.host != "localhost" && options.host != "::1")
    std::cerr << "site: warning: listening on " << options.host << ", reachable from other machines\n";
  LiveBook live;
  live.last_shown = first->diags().all();  // printed by the command before serving
  live.keep(std::move(first));

  // Everything a page depends on: manuscripts, configuration, templates and assets, calc data.
  Watcher watcher;
  std::set<fs::path> skip{options.out_dir};
  watcher.add_tree(options.book_dir, skip);
  watcher.add_tree(writers::data_dir() / "templates");
  watcher.add_tree(writers::data_dir() / "website");

  const fs::path calculations = fs::weakly_canonical(options.book_dir / "calculations");
  std::signal(SIGINT, [](int) { g_stop = 1; });
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  // After chapters alone were rebuilt, the whole book is, once the edits pause for this long.
  constexpr auto pause = std::chrono::milliseconds(1000);
  bool unsettled = false;  // only chapters were rebuilt, at `edited`
  auto edited = std::chrono::steady_clock::now();
  while (!g_stop) {
    auto changed =
        watcher.wait(std::chrono::milliseconds(unsettled ? 100 : 250), std::chrono::milliseconds(50));
    std::vector<fs::path> none;
    if (changed.empty() && unsettled && std::chrono::steady_clock::now() - edited >= pause) {
      unsettled = false;
      try {
        rebuild(options, none, files, cache, server, live);
      } catch (const std::exception& e) {
        std::cerr << "error: the rebuild failed: " << e.what() << '\n';
        cache.parsed.clear();
        cache.forget_calc();
      }
      continue;
    }
    if (changed.empty()) continue;
    static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
    if (timings) std::cerr << "  change seen at " << epoch_ms() << '\n';
    // Parsed chapters are reused unless their file changed; the configuration changes the vocabulary
    // the front end uses, and the calc data the numbers, so those start afresh.
    for (const auto& f : changed) {
      if (f.filename() == "book.toml") cache.parsed.clear();
      if (fs::weakly_canonical(f).native().starts_with(calculations.native())) cache.forget_calc();
    }
    try {
      if (rebuild_chapters(options, changed, files, cache, server, live)) {
        unsettled = true;
        edited = std::chrono::steady_clock::now();
      } else {
        unsettled = false;
        rebuild(options, changed, files, cache, server, live);
      }
    } catch (const std::exception& e) {
      recover(std::string("error: the rebuild failed: ") +
                  (dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what()) + "\n",
              cache, server, live);
    } catch (...) {
      server.failed("error: the rebuild failed\n");
      cache.parsed.clear();
      cache.forget_calc();
      live.keep(nullptr);
    }
  }
  server.stop();
  return 0;
}

}  // namespace bb::server
