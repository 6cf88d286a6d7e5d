// `bookbuild site [--serve]`: builds the website; with --serve, serves it on loopback, rebuilds what
// changed when a manuscript, the configuration, a template, an asset or the calc data changes, and
// reloads the open pages.
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "epub/epub.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "latex/build.hpp"
#include "latex/xelatex.hpp"
#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "site/serve.hpp"
#include "site/site.hpp"
#include "site/watch.hpp"
#include "writers/template.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

struct SiteCommand {
  bool serve = false;
  std::string host = "127.0.0.1";
  int port = 8000;
  std::vector<std::string> editions;
  bool with_downloads = false;
};

volatile std::sig_atomic_t g_stop = 0;

void print_search_sizes(const std::map<std::string, std::size_t>& index_bytes,
                        const std::map<std::string, std::size_t>& query_bytes) {
  for (const auto& [edition, bytes] : index_bytes) {
    std::cerr << "site: search index " << edition << ": " << bytes / 1024 << " KiB in all, "
              << query_bytes.at(edition) / 1024 << " KiB downloaded for one query\n";
  }
}

// --with-downloads: the PDF and EPUB of the selected editions, written first to <out>/pdf and
// <out>/epub, where the site finds them (site/meta.cpp) and links them. False when either failed.
bool build_downloads(const Context& ctx, const SiteCommand& opt) {
  latex::require_xelatex();
  BookSession s;
  if (s.load(ctx, opt.editions) && !s.diags.has_errors()) {
    for (const auto& eb : s.book->editions)
      latex::build_pdf(*s.book, eb, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
    epub::EpubOptions o;
    o.out = ctx.global.out_dir / "epub";
    o.figure_cache = output::cache_dir(ctx.global.out_dir) / "figures";
    o.archive_cache = output::cache_dir(ctx.global.out_dir) / "epub";
    o.quiet = ctx.global.quiet;
    o.repository = s.resolution.repository;
    o.math = [](const doc::Node& n, Diagnostics&) {
      return epub::MathMarkup{math::to_mathml_cached(n.text, n.kind == doc::Kind::DisplayMath).mathml, true};
    };
    epub::build_epubs(std::move(*s.book), o, s.diags);
  }
  return s.report(ctx) == 0;
}

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

site::SiteOptions site_options(const Context& ctx, bool live_reload, bool search) {
  site::SiteOptions so;
  so.live_reload = live_reload;
  so.search = search;
  so.figure_cache = output::cache_dir(ctx.global.out_dir) / "figures";
  so.search_cache = output::cache_dir(ctx.global.out_dir) / "search";
  so.tool = tool_identity();
  so.out = ctx.global.out_dir;
  return so;
}

// One build of the site in memory: load, resolve, render. Diagnostics go to `session`.
std::optional<site::SiteFiles> build(const Context& ctx, const SiteCommand& opt, BookSession& session,
                                     SessionCache* cache = nullptr, bool search = true) {
  Laps lap;
  if (!session.load(ctx, opt.editions, cache) || session.diags.has_errors()) return std::nullopt;
  lap("load and resolve");
  auto files = site::render_site(*session.book, session.resolution, site_options(ctx, opt.serve, search),
                                 session.diags);
  lap("render");
  if (session.diags.has_errors()) return std::nullopt;
  return files;
}

// What a finished `bookbuild site` prints: the time with writing (BOOKBUILD_TIMINGS), then, unless -q,
// the pages written and the search index sizes.
void report_written(const Context& ctx, std::chrono::steady_clock::time_point t0, std::size_t pages,
                    const std::map<std::string, std::size_t>& index_bytes,
                    const std::map<std::string, std::size_t>& query_bytes) {
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  if (std::getenv("BOOKBUILD_TIMINGS"))
    std::cerr << "  total with writing: " << std::chrono::duration<double, std::milli>(elapsed).count()
              << " ms\n";
  if (ctx.global.quiet) return;
  std::cerr << "site: " << pages << " pages written to " << (ctx.global.out_dir / "site").string() << " in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() << " ms\n";
  print_search_sizes(index_bytes, query_bytes);
}

// `bookbuild site` without --serve: the book is read, resolved and rendered one edition at a time,
// each edition's pages written into the staged site before the next is read (site::SiteWriter), so
// that a large book is never held whole. Returns the exit code.
int build_by_edition(const Context& ctx, const SiteCommand& opt, std::chrono::steady_clock::time_point t0) {
  BookSession s;
  std::optional<site::SiteWriter> writer;
  const fs::path out = ctx.global.out_dir / "site";
  auto start = [&] {
    if (!writer) writer.emplace(*s.book, s.resolution, site_options(ctx, false, true), s.diags, out);
  };
  bool loaded = s.load_each(ctx, opt.editions, [&](std::size_t e) {
    if (s.diags.has_errors()) return;  // after an error nothing is written anyway
    start();
    writer->add_edition(e);
  });
  if (loaded && !s.diags.has_errors()) {
    start();
    site::SiteSummary summary = writer->finish();
    if (summary.written) {
      highlight::save_cache();
      report_written(ctx, t0, summary.pages, summary.search_index_bytes, summary.search_query_bytes);
    }
  }
  writer.reset();  // an unfinished staged folder is removed here
  return s.report(ctx);
}

std::string diagnostics_text(const BookSession& s, const Context& ctx) {
  std::ostringstream out;
  s.diags.print(out, ctx.global.book_dir);
  s.diags.print_summary(out);
  return out.str();
}

// What one build leaves for the next under --serve: the resolved book, so that an edit of a
// chapter's text re-reads, resolves and renders that chapter alone (rebuild_chapters).
struct LiveBook {
  std::unique_ptr<BookSession> session;  // the last good build; null: the next change rebuilds all
  std::map<fs::path, std::pair<std::size_t, std::size_t>> chapters;  // manuscript → (edition, chapter)
  std::string last_warnings;  // as last printed: warnings are shown again only when they change

  void keep(std::unique_ptr<BookSession> s) {
    chapters.clear();
    session = std::move(s);
    if (!session || !session->book) return;
    for (std::size_t e = 0; e < session->book->editions.size(); ++e)
      for (std::size_t i = 0; i < session->book->editions[e].chapters.size(); ++i)
        chapters[fs::weakly_canonical(session->book->editions[e].chapters[i].path)] = {e, i};
  }
};

long long epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The changed pages without a patch are told to fetch themselves again.
void fetch_unpatched(site::DevServer& server, const std::vector<std::string>& pages,
                     const std::map<std::string, std::string>& patches) {
  std::vector<std::string> fetch;
  for (const auto& page : pages)
    if (!patches.count(page)) fetch.push_back(page);
  server.reload(fetch);
}

// Open pages that changed by blocks get those blocks; the others are told to fetch themselves again.
void reload(site::DevServer& server, const std::vector<std::string>& pages,
            const std::map<std::string, std::string>& patches) {
  for (const auto& page : pages)
    if (auto it = patches.find(page); it != patches.end()) server.patch(page, it->second);
  fetch_unpatched(server, pages, patches);
}

void print_warnings(const BookSession& session, const Context& ctx, LiveBook& live) {
  std::ostringstream warnings;
  session.diags.print(warnings, ctx.global.book_dir);
  if (warnings.str() != live.last_warnings) std::cerr << warnings.str();
  live.last_warnings = warnings.str();
}

// After an edit of chapters' text only: each is parsed, resolved and rendered again on its own and
// its page rewritten; the rest of the book stays as the last build left it. False — with nothing
// written — when that is not enough (another file changed, a chapter's targets, ids or title
// changed, an error): the caller then rebuilds everything. The search index and the other pages
// are brought up to date by the full build that follows once the edits pause.
bool rebuild_chapters(Context& ctx, const std::vector<fs::path>& changed, site::SiteFiles& files,
                      SessionCache& cache, site::DevServer& server, LiveBook& live) {
  if (!live.session || !live.session->book || live.session->diags.has_errors()) return false;
  static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
  auto t0 = std::chrono::steady_clock::now();
  Laps lap;
  std::vector<std::pair<std::size_t, std::size_t>> chapters;
  for (const auto& f : changed) {
    auto it = live.chapters.find(fs::weakly_canonical(f));
    if (it == live.chapters.end()) return false;
    chapters.push_back(it->second);
  }
  BookSession& s = *live.session;
  auto give_up = [&] {
    live.keep(nullptr);  // half updated: the full build starts afresh
    return false;
  };
  filters::ResolveOptions options;
  options.evaluate = cache.evaluator ? &*cache.evaluator : nullptr;
  options.repository = &s.resolution.repository;
  std::vector<std::vector<Diagnostic>> before;  // each chapter's diagnostics, to show what changed
  for (const auto& [e, i] : chapters) {
    book::Chapter& c = s.book->editions[e].chapters[i];
    const std::string old_title = c.title;
    before.push_back(s.diags.forget(c.path));
    lap("find");
    // Not through the parse cache: storing the tree would copy it, on the way to the page; the
    // full build after the pause parses the chapter for the cache.
    book::reload_chapter(*s.book, e, i, s.diags);
    lap("parse");
    if (!filters::resolve_again(*s.book, s.resolution, e, i, old_title, s.diags, options)) return give_up();
  }
  if (s.diags.has_errors()) return give_up();
  lap("resolve");
  auto part =
      site::render_pages(*s.book, s.resolution, site_options(ctx, true, false), s.diags, chapters, &files);
  lap("render");
  if (s.diags.has_errors()) return give_up();
  // Open pages that change by blocks are patched before the pages are written; the others are told
  // to fetch themselves once they are on disk.
  std::map<std::string, std::string> patches;
  auto patch = [&](const std::map<std::string, std::string>& ready) {
    for (const auto& [page, blocks] : ready) server.patch(page, blocks);
    lap("patch");
    if (timings && !ready.empty()) std::cerr << "  patch sent at " << epoch_ms() << '\n';
  };
  auto pages = site::update_pages(files, std::move(part), ctx.global.out_dir / "site", &patches, patch);
  lap("write");
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  fetch_unpatched(server, pages, patches);
  if (timings) std::cerr << "  reload sent at " << epoch_ms() << '\n';
  if (!ctx.global.quiet)
    std::cerr << "site: " << changed.front().filename().string() << (changed.size() > 1 ? " and others" : "")
              << " changed; its page rebuilt in " << ms << " ms\n";
  // The chapters' diagnostics, when they changed (all of the book's are shown after the next full build).
  for (std::size_t k = 0; k < chapters.size(); ++k) {
    const auto& [e, i] = chapters[k];
    auto now = s.diags.in(s.book->editions[e].chapters[i].path);
    auto text = [&](const std::vector<Diagnostic>& ds) {
      Diagnostics d;
      for (const auto& x : ds) d.add(x);
      std::ostringstream out;
      d.print(out, ctx.global.book_dir);
      return out.str();
    };
    if (std::string shown = text(now); shown != text(before[k])) std::cerr << shown;
  }
  return true;
}

// One rebuild of everything after `changed`: the pages first, so the open page updates at once; the
// search index follows. A failing build leaves `files` (the last good site) as it is.
void rebuild(Context& ctx, const SiteCommand& opt, const std::vector<fs::path>& changed,
             site::SiteFiles& files, SessionCache& cache, site::DevServer& server, LiveBook& live) {
  const fs::path out = ctx.global.out_dir / "site";
  static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
  auto t0 = std::chrono::steady_clock::now();
  live.keep(nullptr);  // one resolved book in memory at a time
  auto kept = std::make_unique<BookSession>();
  BookSession& session = *kept;
  // Pages first, so the open page updates at once; the search index follows.
  auto next = build(ctx, opt, session, &cache, /*search=*/false);
  if (!next) {
    std::string text = diagnostics_text(session, ctx);
    std::cerr << text;
    server.failed(text);
    return;  // keep serving the last good build
  }
  for (const auto& [rel, content] : files.generated)
    if (site::is_search_file(rel)) next->generated[rel] = content;
  next->search_index_bytes = files.search_index_bytes;
  next->search_query_bytes = files.search_query_bytes;
  std::map<std::string, std::string> patches;
  auto pages = site::update_site(files, *next, out, &patches);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  if (!ctx.global.quiet && !changed.empty()) {
    std::string shown = changed.front().filename().string() + (changed.size() > 1 ? " and others" : "");
    std::cerr << "site: " << shown << " changed; rebuilt in " << ms << " ms, " << pages.size()
              << " pages updated\n";
  }
  reload(server, pages, patches);
  if (timings) std::cerr << "  reload sent at " << epoch_ms() << '\n';
  site::SiteFiles with_search = *next;
  site::render_search(*session.book, site_options(ctx, true, true), with_search);
  site::update_site(*next, with_search, out);
  files = std::move(with_search);
  highlight::save_cache();
  if (timings) std::cerr << "  search index written at " << epoch_ms() << '\n';
  // Warnings are shown again only when they change, so a long list does not bury each rebuild.
  print_warnings(session, ctx, live);
  live.keep(std::move(kept));
}

int serve(Context& ctx, const SiteCommand& opt, site::SiteFiles files, SessionCache& cache, LiveBook live) {
  const fs::path out = ctx.global.out_dir / "site";
  site::DevServer server(out, opt.host, opt.port);
  if (!server.start()) {
    std::cerr << "site: cannot listen on " << opt.host << ':' << opt.port << " (in use? try --port)\n";
    return 1;
  }
  std::cerr << "site: serving http://" << opt.host << ':' << opt.port << "/  (Ctrl-C to stop)\n";
  if (opt.host != "127.0.0.1" && opt.host != "localhost" && opt.host != "::1")
    std::cerr << "site: warning: listening on " << opt.host << ", reachable from other machines\n";

  // Everything a page depends on: manuscripts, configuration, templates and assets, calc data.
  site::Watcher watcher;
  std::set<fs::path> skip{ctx.global.out_dir};
  watcher.add_tree(ctx.global.book_dir, skip);
  watcher.add_tree(writers::data_dir() / "templates");
  watcher.add_tree(writers::data_dir() / "website");

  const fs::path calculations = fs::weakly_canonical(ctx.global.book_dir / "calculations");
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
        rebuild(ctx, opt, none, files, cache, server, live);
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
      if (rebuild_chapters(ctx, changed, files, cache, server, live)) {
        unsettled = true;
        edited = std::chrono::steady_clock::now();
      } else {
        unsettled = false;
        rebuild(ctx, opt, changed, files, cache, server, live);
      }
    } catch (const std::exception& e) {
      // Whatever went wrong (out of memory, an I/O error, a bug), the server keeps serving the last
      // good site and the pages show the error; the parse cache may be half-updated, so it starts afresh.
      std::string text = std::string("error: the rebuild failed: ") +
                         (dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what()) + "\n";
      std::cerr << text;
      server.failed(text);
      cache.parsed.clear();
      cache.forget_calc();
      live.keep(nullptr);
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

}  // namespace

void define_site_command(CLI::App* sub, Context& ctx) {
  auto opt = std::make_shared<SiteCommand>();
  sub->add_flag("--serve", opt->serve, "Serve the site, rebuild on changes and reload open pages");
  sub->add_option("--host", opt->host, "Address to listen on (default 127.0.0.1: this machine only)")
      ->type_name("ADDRESS");
  sub->add_option("--port", opt->port, "Port to listen on (default 8000)")
      ->type_name("PORT")
      ->check(CLI::Range(1, 65535));
  add_edition_option(sub, opt->editions);
  sub->add_flag("--with-downloads", opt->with_downloads,
                "Build the PDF and EPUB of each edition first and link them from every page");
  sub->callback([&ctx, opt] {
    std::optional<RecordedRun> run;
    if (!opt->serve) {
      run.emplace(ctx);
      if (run->replayed()) return;
    } else {
      inputs::stop();  // the server keeps no record
    }
    use_output_caches(ctx);  // for the downloads, the site and every rebuild under --serve
    if (opt->with_downloads && !build_downloads(ctx, *opt)) {
      ctx.exit_code = 1;
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    if (!opt->serve) {
      ctx.exit_code = build_by_edition(ctx, *opt, t0);
      run->finish(ctx.exit_code, {ctx.global.out_dir / "site"});
      return;
    }
    auto session = std::make_unique<BookSession>();
    BookSession& s = *session;
    auto cache = std::make_shared<SessionCache>();  // serve: later builds reuse what this one parsed
    auto files = build(ctx, *opt, s, opt->serve ? cache.get() : nullptr);
    if (files) {
      site::write_site(*files, ctx.global.out_dir / "site");
      highlight::save_cache();
      std::size_t pages = 0;
      for (const auto& [rel, content] : files->generated) pages += rel.ends_with(".html");
      report_written(ctx, t0, pages, files->search_index_bytes, files->search_query_bytes);
    }
    ctx.exit_code = s.report(ctx);
    if (ctx.exit_code != 0 || !opt->serve) return;
    LiveBook live;
    std::ostringstream shown;
    s.diags.print(shown, ctx.global.book_dir);
    live.last_warnings = shown.str();
    live.keep(std::move(session));
    ctx.exit_code = serve(ctx, *opt, std::move(*files), *cache, std::move(live));
  });
}

}  // namespace bb::cli
