// The command line as one CLI11 app: the global options, then one subcommand per file of cli/. The
// entry point (main.cpp) parses with it; the manual page and the tests walk it.
#include <sys/ioctl.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/allocator.hpp"
#include "cli/commands.hpp"
#include "commit.hpp"  // generated: BOOKBUILD_COMMIT
#include "diag/progress.hpp"
#include "inputs/inputs.hpp"
#include "text/suggest.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

// The default book is the repository around the current directory: the nearest folder upwards that
// has a book.toml, else the nearest with a .git, else the current directory.
fs::path default_book_dir() {
  fs::path cwd = fs::current_path();
  for (fs::path p = cwd; !p.empty(); p = p.parent_path()) {
    inputs::note_file(p / "book.toml");
    if (fs::exists(p / "book.toml")) return p;
    if (p == p.parent_path()) break;
  }
  for (fs::path p = cwd; !p.empty(); p = p.parent_path()) {
    inputs::note_file(p / ".git");
    if (fs::exists(p / ".git")) return p;
    if (p == p.parent_path()) break;
  }
  return cwd;
}

// The terminal's width for the status line: the window size of stderr, else $COLUMNS, else 80.
int terminal_columns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS"); c && std::atoi(c) > 0) return std::atoi(c);
  return 80;
}

// --progress: the status line on stderr, and both standard streams guarded so that whatever the
// tool prints wipes it first (diag/progress.hpp).
void start_progress(bb::ProgressMode mode, bool quiet) {
  if (!bb::progress_wanted(mode, quiet, ::isatty(STDERR_FILENO) == 1, std::getenv("TERM"))) return;
  bb::Progress& p = bb::progress();
  p.enable(std::cerr.rdbuf(), terminal_columns(), std::chrono::milliseconds(50));
  std::cerr.rdbuf(p.guard(std::cerr.rdbuf()));
  std::cout.rdbuf(p.guard(std::cout.rdbuf()));
}

}  // namespace

std::string tool_identity() {
  return std::string("bookbuild ") + BOOKBUILD_VERSION + " (commit " + BOOKBUILD_COMMIT + ")";
}

namespace {

// Every subcommand, in the order `--help` lists them. `whole` marks those that describe the whole
// app; `hidden` those --help does not list (an empty group).
struct Subcommand {
  const char* name;
  const char* summary;
  void (*define)(CLI::App*, Context&);
  bool whole = false;
  bool hidden = false;
};

const Subcommand kSubcommands[] = {
    {"build",
     "Build everything in one run: an EPUB and a PDF per edition, the site linking them, and "
     "<out>/build.json",
     define_build_command},
    {"site", "Build the website into <out>/site (or serve it from <out>/.serve with --serve)",
     define_site_command},
    {"epub", "Write an EPUB 3 per edition into <out>/epub/<name>-<edition>.epub (MathML, figures, cover)",
     define_epub_command},
    {"latex",
     "Write each edition's LaTeX for XeLaTeX (book.tex, its figures as PDF) into <out>/latex/<edition>/",
     define_latex_command},
    {"pdf", "Typeset each edition with XeLaTeX (up to 3 passes) into <out>/pdf/<name>-<edition>.pdf",
     define_pdf_command},
    {"check", "Check the book: manuscripts parse, references resolve, numbers match", define_check_command},
    {"diff",
     "Print the numbers that move between two revisions, in every edition (default: the merge-base "
     "with the default branch against the work tree)",
     define_diff_command},
    {"calc", "Resource-model calculations behind the book's numbers", define_calc_command},
    {"chart", "Print one chart spec's SVG as an edition draws it (--edition E; default: the source)",
     define_chart_command},
    {"init", "Create a new book (book.toml, a preface, a chapter, calculations/) in DIR",
     define_init_command},
    {"completion", "Print a shell completion script (bash or zsh)",
     [](CLI::App* sub, Context&) { define_completion_command(sub); }, true},
    // hidden: the build runs it; readers run `man bookbuild`
    {"manpage", "Print the manual page bookbuild.1 (roff)",
     [](CLI::App* sub, Context&) { define_manpage_command(sub); }, true, true},
};

// Whether the command line starts the dev server (`site --serve`).
bool serving(const CLI::App& app) {
  if (!app.got_subcommand("site")) return false;
  const CLI::Option* serve = app.get_subcommand("site")->get_option_no_throw("--serve");
  return serve != nullptr && serve->count() > 0;
}

// `defined(name)` says whether a subcommand gets its options and action or only its outline.
template <typename Defined>
std::unique_ptr<CLI::App> build_app(Context& ctx, Defined defined) {
  auto app = std::make_unique<CLI::App>(
      "bookbuild: builds a multilingual technical book from Markdown into a website, EPUB and PDF,\n"
      "and checks its links, references and computed numbers.",
      "bookbuild");
  app->set_version_flag("--version", tool_identity());
  // The raw values, resolved once the whole command line is parsed.
  struct Raw {
    std::string book, out;
    std::string progress = "auto";
  };
  auto raw = std::make_shared<Raw>();
  app->add_option("--book", raw->book, "Book folder (default: the repository around the current directory)")
      ->type_name("DIR");
  app->add_option("--out", raw->out, "Output folder (default: <book>/build)")->type_name("DIR");
  app->add_flag(
      "-q,--quiet", ctx.global.quiet,
      "Print only problems, one line each with its kind (`path:line:col: warning: ... [link-target]`)");
  app->add_option("--max-warnings", ctx.global.max_warnings,
                  "Fail (exit 1) when a run reports more than N warnings (default: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  app->add_flag("-v,--verbose", ctx.global.verbose,
                "Also say where each configuration value came from (book.toml, README, Git remote, layout)");
  app->add_option("--progress", raw->progress,
                  "Show a status line for long work (XeLaTeX passes, figures, pages): auto (default: only "
                  "when stderr is a terminal and TERM is not dumb), always, never; -q means never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN");
  app->add_option("--repository", ctx.global.repository,
                  "Repository web URL that links to the book's other files point into, pinned to the "
                  "commit (default: [book] repository)")
      ->type_name("URL");
  app->require_subcommand(1);
  app->fallthrough();  // global options may follow the subcommand

  for (const Subcommand& s : kSubcommands) {
    CLI::App* sub = app->add_subcommand(s.name, s.summary);
    if (s.hidden) sub->group("");
    if (defined(s.name)) s.define(sub, ctx);
  }

  // Global options are resolved, and the heap set up, before any subcommand callback runs.
  app->parse_complete_callback([&ctx, raw, self = app.get()] {
    // A build is a short run, whose heap is set up for few page faults (allocator.cpp). The dev
    // server lives for hours with the whole book in memory: with that set-up, every edit of a 100×
    // book took 2–5 times as long as on glibc's defaults (docs/benchmarks.md, tenth session).
    const HeapSetup heap = serving(*self) ? HeapSetup{} : tune_allocator();
    if (std::getenv("BOOKBUILD_TIMINGS"))
      std::cerr << "  heap: " << (heap.tuned ? "set up for a short run" : "glibc's defaults") << '\n';
    const std::string& book = raw->book;
    const std::string& out = raw->out;
    ctx.global.book_dir = book.empty() ? default_book_dir() : fs::absolute(book).lexically_normal();
    ctx.global.out_given = !out.empty();
    ctx.global.out_dir = out.empty() ? ctx.global.book_dir / "build" : fs::absolute(out).lexically_normal();
    start_progress(raw->progress == "always"  ? ProgressMode::Always
                   : raw->progress == "never" ? ProgressMode::Never
                                              : ProgressMode::Auto,
                   ctx.global.quiet);
  });
  return app;
}

}  // namespace

std::optional<std::string> unknown_command(const CLI::App& app, const std::vector<std::string_view>& args) {
  const CLI::App* at = &app;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--") return std::nullopt;
    if (a.starts_with("-")) {
      // An option that takes a value (`--out DIR`) takes the next word too, unless written `--out=DIR`.
      const std::string name(a.substr(0, a.find('=')));
      const CLI::Option* o = at->get_option_no_throw(name);
      if (o && o->get_items_expected_min() > 0 && a.find('=') == std::string_view::npos) ++i;
      continue;
    }
    std::vector<std::string> names;
    for (const CLI::App* sub : at->get_subcommands([](const CLI::App*) { return true; }))
      if (!sub->get_group().empty()) names.push_back(sub->get_name());
    if (names.empty()) return std::nullopt;  // a command of its own: the word is its argument
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : at->get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == a) next = sub;
    if (!next) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      const std::string whose = at == &app ? "" : " of `" + at->get_name() + "`";
      return "unknown command `" + std::string(a) + "`" + whose + text::did_you_mean(a, names) +
             "; the commands are: " + list;
    }
    at = next;
  }
  return std::nullopt;
}

std::unique_ptr<CLI::App> make_app(Context& ctx) {
  return build_app(ctx, [](std::string_view) { return true; });
}

std::unique_ptr<CLI::App> make_app(Context& ctx, const std::vector<std::string_view>& args) {
  auto named = [&](std::string_view name) { return std::find(args.begin(), args.end(), name) != args.end(); };
  bool whole = false;
  for (const Subcommand& s : kSubcommands) whole = whole || (s.whole && named(s.name));
  return build_app(ctx, [&](std::string_view name) { return whole || named(name); });
}

}  // namespace bb::cli
