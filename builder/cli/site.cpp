// `bookbuild site [--serve]`: builds the website, and serves it on loopback.
#include <httplib.h>
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "site/site.hpp"

namespace bb::cli {

namespace {
struct SiteCommand {
  bool serve = false;
  std::string host = "127.0.0.1";
  int port = 8000;
  std::vector<std::string> editions;
};
}  // namespace

void add_site_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<SiteCommand>();
  CLI::App* sub = app.add_subcommand("site", "Build the website into <out>/site (and serve it with --serve)");
  sub->add_flag("--serve", opt->serve, "Serve the site after building it");
  sub->add_option("--host", opt->host, "Address to listen on (default 127.0.0.1: loopback only)");
  sub->add_option("--port", opt->port, "Port to listen on (default 8000)")->check(CLI::Range(1, 65535));
  sub->add_option("--edition", opt->editions, "Only these editions (repeatable)");
  sub->callback([&ctx, opt] {
    BookSession s;
    if (s.load(ctx, opt->editions) && !s.diags.has_errors()) {
      site::build_site(*s.book, {ctx.global.out_dir / "site", ctx.global.quiet}, s.diags);
    }
    ctx.exit_code = s.report(ctx);
    if (ctx.exit_code != 0 || !opt->serve) return;

    httplib::Server server;
    auto root = (ctx.global.out_dir / "site").string();
    // httplib's mount point refuses paths that climb out of the folder (`..`, encoded or not).
    if (!server.set_mount_point("/", root)) {
      std::cerr << "site: cannot serve " << root << '\n';
      ctx.exit_code = 1;
      return;
    }
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.status == 404)
        res.set_content("<!DOCTYPE html><title>Not found</title><h1>404 Not found</h1>", "text/html");
    });
    std::cerr << "site: serving http://" << opt->host << ':' << opt->port << "/ (Ctrl-C to stop)\n";
    if (!server.listen(opt->host, opt->port)) {
      std::cerr << "site: cannot listen on " << opt->host << ':' << opt->port << '\n';
      ctx.exit_code = 1;
    }
  });
}

}  // namespace bb::cli
