// `bookbuild site [--serve]`: builds the website; with --serve, serves it on loopback, rebuilds what
// changed when a manuscript, the configuration, a template, an asset or the calc data changes, and
// reloads the open pages.
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <iostream>
#include <sstream>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
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
};

volatile std::sig_atomic_t g_stop = 0;

void print_search_sizes(const site::SiteFiles& files) {
  for (const auto& [edition, bytes] : files.search_index_bytes) {
    std::cerr << "site: search index " << edition << ": " << bytes / 1024 << " KiB in all, "
              << files.search_query_bytes.at(edition) / 1024 << " KiB downloaded for one query\n";
  }
}

// One build of the site in memory: load, resolve, render. Diagnostics go to `session`.
std::optional<site::SiteFiles> build(const Context& ctx, const SiteCommand& opt, BookSession& session) {
  if (!session.load(ctx, opt.editions) || session.diags.has_errors()) return std::nullopt;
  site::SiteOptions so;
  so.live_reload = opt.serve;
  so.figure_cache = ctx.global.out_dir / ".cache" / "figures";
  auto files = site::render_site(*session.book, session.resolution, so, session.diags);
  if (session.diags.has_errors()) return std::nullopt;
  return files;
}

std::string diagnostics_text(const BookSession& s, const Context& ctx) {
  std::ostringstream out;
  s.diags.print(out, ctx.global.book_dir);
  s.diags.print_summary(out);
  return out.str();
}

int serve(Context& ctx, const SiteCommand& opt, site::SiteFiles files) {
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

  std::signal(SIGINT, [](int) { g_stop = 1; });
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  while (!g_stop) {
    auto changed = watcher.wait(std::chrono::milliseconds(250), std::chrono::milliseconds(10));
    if (changed.empty()) continue;
    auto t0 = std::chrono::steady_clock::now();
    BookSession session;
    auto next = build(ctx, opt, session);
    if (!next) {
      std::string text = diagnostics_text(session, ctx);
      std::cerr << text;
      server.failed(text);
      continue;  // keep serving the last good build
    }
    auto pages = site::update_site(files, *next, out);
    files = std::move(*next);
    auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    if (!ctx.global.quiet) {
      std::string shown = changed.front().filename().string() + (changed.size() > 1 ? " and others" : "");
      std::cerr << "site: " << shown << " changed; rebuilt in " << ms << " ms, " << pages.size()
                << " pages updated\n";
    }
    session.diags.print(std::cerr, ctx.global.book_dir);  // warnings, if any
    server.reload(pages);
  }
  server.stop();
  return 0;
}

}  // namespace

void add_site_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<SiteCommand>();
  CLI::App* sub = app.add_subcommand("site", "Build the website into <out>/site (and serve it with --serve)");
  sub->add_flag("--serve", opt->serve, "Serve the site, rebuild on changes and reload open pages");
  sub->add_option("--host", opt->host, "Address to listen on (default 127.0.0.1: this machine only)");
  sub->add_option("--port", opt->port, "Port to listen on (default 8000)")->check(CLI::Range(1, 65535));
  sub->add_option("--edition", opt->editions, "Only these editions (repeatable)");
  sub->callback([&ctx, opt] {
    auto t0 = std::chrono::steady_clock::now();
    BookSession s;
    auto files = build(ctx, *opt, s);
    if (files) {
      site::write_site(*files, ctx.global.out_dir / "site");
      if (!ctx.global.quiet) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
                      .count();
        std::size_t pages = 0;
        for (const auto& [rel, content] : files->generated) pages += rel.ends_with(".html");
        std::cerr << "site: " << pages << " pages written to " << (ctx.global.out_dir / "site").string()
                  << " in " << ms << " ms\n";
        print_search_sizes(*files);
      }
    }
    ctx.exit_code = s.report(ctx);
    if (ctx.exit_code != 0 || !opt->serve) return;
    ctx.exit_code = serve(ctx, *opt, std::move(*files));
  });
}

}  // namespace bb::cli
