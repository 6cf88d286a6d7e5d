// `bookbuild check [what]`: parses the whole book and runs the checks that apply to it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "check/epub_check.hpp"
#include "cli/book_session.hpp"
#include "cli/commands.hpp"

namespace bb::cli {

namespace {

struct CheckOptions {
  std::string what = "all";
  std::vector<std::string> editions;
  bool dump = false;
  std::vector<std::string> epubs;  // check epub: these files (default: every <out>/epub/*.epub)
};

// Counts of what the front end recognised, per chapter: a quick way to see that a manuscript was
// understood (figures with captions, display formulas, tables, footnote references).
void print_inventory(const book::Book& b, std::ostream& out) {
  for (const auto& e : b.editions) {
    out << e.edition.id << " (" << e.edition.lang << "): " << e.chapters.size() << " chapters\n";
    for (const auto& c : e.chapters) {
      std::map<std::string, int> n;
      doc::walk(c.root, [&](const doc::Node& x) {
        switch (x.kind) {
          case doc::Kind::Figure: ++n[x.caption.empty() ? "figures without caption" : "figures"]; break;
          case doc::Kind::DisplayMath: ++n["display math"]; break;
          case doc::Kind::InlineMath: ++n["inline math"]; break;
          case doc::Kind::Table: ++n["tables"]; break;
          case doc::Kind::FootnoteRef: ++n["footnote refs"]; break;
          case doc::Kind::Callout: ++n["callouts"]; break;
          case doc::Kind::Heading: ++n["headings"]; break;
          default: break;
        }
      });
      out << "  " << c.key << "  " << c.title << "\n    ";
      bool first = true;
      for (const auto& [k, v] : n) {
        out << (first ? "" : ", ") << v << ' ' << k;
        first = false;
      }
      out << '\n';
    }
  }
}

// `check epub`: the given files, or every EPUB the last `bookbuild epub` wrote.
int check_epubs(const Context& ctx, std::vector<std::string> files) {
  namespace fs = std::filesystem;
  if (files.empty()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(ctx.global.out_dir / "epub", ec))
      if (e.path().extension() == ".epub") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) {
    std::cerr << "check epub: no EPUB given and none in " << (ctx.global.out_dir / "epub").string() << '\n';
    return 2;
  }
  Diagnostics diags;
  for (const auto& f : files) check::check_epub(f, diags);
  diags.print(std::cerr);
  diags.print_summary(std::cerr);
  if (!diags.has_errors() && !ctx.global.quiet)
    std::cerr << "check epub: " << files.size() << " EPUB(s), no problems found\n";
  return diags.has_errors() ? 1 : 0;
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* sub =
      app.add_subcommand("check", "Check the book: manuscripts parse, references resolve, numbers match");
  sub->add_option("what", opt->what, "Which check: all (default), parse, epub")
      ->check(CLI::IsMember({"all", "parse", "epub"}));
  sub->add_option("--file", opt->epubs,
                  "check epub: the EPUB to check (repeatable; default: <out>/epub/*.epub)");
  sub->add_option("--edition", opt->editions, "Only these editions (repeatable)");
  sub->add_flag("--dump", opt->dump, "Print the document tree of every chapter");
  sub->callback([&ctx, opt] {
    if (opt->what == "epub") {
      ctx.exit_code = check_epubs(ctx, opt->epubs);
      return;
    }
    BookSession s;
    if (s.load(ctx, opt->editions)) {
      if (opt->dump) {
        for (const auto& e : s.book->editions)
          for (const auto& c : e.chapters)
            std::cout << "== " << e.edition.id << ' ' << c.key << '\n' << doc::dump(c.root);
      } else if (!ctx.global.quiet) {
        print_inventory(*s.book, std::cout);
      }
    }
    ctx.exit_code = s.report(ctx);
    if (ctx.exit_code == 0 && !ctx.global.quiet) std::cerr << "check: no problems found\n";
  });
}

}  // namespace bb::cli
