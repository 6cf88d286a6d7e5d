// `bookbuild check [what]`: parses the whole book and runs the checks that apply to it.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "check/pdf_check.hpp"
#include "cli/book_session.hpp"
#include "cli/commands.hpp"

namespace bb::cli {

namespace {

struct CheckOptions {
  std::string what = "all";
  std::vector<std::string> editions;
  bool dump = false;
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

}  // namespace

void add_check_command(CLI::App& app, Context& ctx) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* sub =
      app.add_subcommand("check", "Check the book: manuscripts parse, references resolve, numbers match");
  sub->add_option("what", opt->what, "Which check: all (default), parse, pdf")
      ->check(CLI::IsMember({"all", "parse", "pdf"}));
  sub->add_option("--edition", opt->editions, "Only these editions (repeatable)");
  sub->add_flag("--dump", opt->dump, "Print the document tree of every chapter");
  sub->callback([&ctx, opt] {
    BookSession s;
    if (s.load(ctx, opt->editions)) {
      if (opt->what == "pdf") {
        check::check_pdfs(*s.book, ctx.global.out_dir, s.diags, std::cout);
      } else if (opt->dump) {
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
