// `bookbuild site [--serve]`: builds the website; with --serve, serves it on loopback, rebuilds what
// changed when a manuscript, the configuration, a template, an asset or the calc data changes, and
// reloads the open pages.
#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "bookfilters/filtered_store.hpp"
#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "epub/epub.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "server/live.hpp"
#include "site/site.hpp"
#include "typeset/build.hpp"
#include "typeset/xelatex.hpp"

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
  typeset::require_xelatex();
  BookSession s;
  if (s.load(ctx, opt.editions) && !s.diags.has_errors()) {
    for (const auto& eb : s.book->editions)
      typeset::build_pdf(*s.book, eb, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
    epub::EpubOptions o = epub_options(ctx);
    o.repository = s.resolution.repository;
    epub::build_epubs(std::move(*s.book), o, s.diags);
  }
  return s.report(ctx) == 0;
}

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

// What a finished `bookbuild site` prints: the time with writing (BOOKBUILD_TIMINGS), then, unless -q,
// the pages written and the search index sizes.
void report_written(const Context& ctx, const fs::path& site, std::chrono::steady_clock::time_point t0,
                    std::size_t pages, const std::map<std::string, std::size_t>& index_bytes,
                    const std::map<std::string, std::size_t>& query_bytes) {
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  if (std::getenv("BOOKBUILD_TIMINGS")) {
    std::cerr << "  total with writing: " << std::chrono::duration<double, std::milli>(elapsed).count()
              << " ms\n";
    const bookfilters::RunCounts filtered = bookfilters::run_counts();
    std::cerr << "  book filters: " << filtered.ran << " chapter passes run, " << filtered.reused
              << " reused from the store\n";
  }
  if (ctx.global.quiet) return;
  std::cerr << "site: " << pages << " pages written to " << site.string() << " in "
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
      report_written(ctx, out, t0, summary.pages, summary.search_index_bytes, summary.search_query_bytes);
    }
  }
  writer.reset();  // an unfinished staged folder is removed here
  return s.report(ctx);
}

// The session of the command line, as the live site sees it.
struct ServedSession final : server::Session {
  BookSession s;
  Diagnostics& diags() override { return s.diags; }
  std::optional<book::Book>& book() override { return s.book; }
  filters::Resolution& resolution() override { return s.resolution; }
};

server::LiveOptions live_options(Context& ctx, const SiteCommand& opt) {
  server::LiveOptions o;
  o.book_dir = ctx.global.book_dir;
  o.out_dir = ctx.global.out_dir;
  o.host = opt.host;
  o.port = opt.port;
  o.quiet = ctx.global.quiet;
  o.site = site_options(ctx, true, true);
  o.load = [&ctx, editions = opt.editions](server::SessionCache& cache) {
    auto session = std::make_unique<ServedSession>();
    session->s.load(ctx, editions, &cache);
    return session;
  };
  return o;
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
    const server::LiveOptions live = live_options(ctx, *opt);
    auto cache = std::make_shared<server::SessionCache>();  // later builds reuse what this one parsed
    std::unique_ptr<server::Session> first;
    auto files = server::build_site(live, *cache, /*search=*/true, first);
    if (files) {
      site::write_site(*files, server::served_dir(ctx.global.out_dir));
      highlight::save_cache();
      std::size_t pages = 0;
      for (const auto& [rel, content] : files->generated) pages += rel.ends_with(".html");
      report_written(ctx, server::served_dir(ctx.global.out_dir), t0, pages, files->search_index_bytes,
                     files->search_query_bytes);
    }
    ctx.exit_code = static_cast<ServedSession&>(*first).s.report(ctx);
    if (ctx.exit_code != 0) return;
    ctx.exit_code = server::serve(live, std::move(*files), *cache, std::move(first));
  });
}

}  // namespace bb::cli
