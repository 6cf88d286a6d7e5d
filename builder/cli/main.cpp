// bookbuild: the command-line entry point. Global options, then one subcommand per file.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.hpp"
#include "commit.hpp"  // generated: BOOKBUILD_COMMIT
#include "diag/diagnostics.hpp"

namespace fs = std::filesystem;

namespace {

// The default book is the repository around the current directory: the nearest folder upwards that
// has a book.toml, else the nearest with a .git, else the current directory.
fs::path default_book_dir() {
  fs::path cwd = fs::current_path();
  for (fs::path p = cwd; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "book.toml")) return p;
    if (p == p.parent_path()) break;
  }
  for (fs::path p = cwd; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git")) return p;
    if (p == p.parent_path()) break;
  }
  return cwd;
}

}  // namespace

int main(int argc, char** argv) {
  bb::cli::Context ctx;
  CLI::App app{
      "bookbuild: builds a multilingual technical book from Markdown into a website, EPUB and PDF,\n"
      "and checks its links, references and computed numbers.",
      "bookbuild"};
  app.set_version_flag("--version",
                       std::string("bookbuild ") + BOOKBUILD_VERSION + " (commit " + BOOKBUILD_COMMIT + ")");
  std::string book, out;
  app.add_option("--book", book, "Book folder (default: the repository around the current directory)")
      ->type_name("DIR");
  app.add_option("--out", out, "Output folder (default: <book>/build)")->type_name("DIR");
  app.add_flag("-q,--quiet", ctx.global.quiet, "Print only problems");
  app.add_option("--repository", ctx.global.repository,
                 "Repository web URL that links to the book's other files point into, pinned to the "
                 "commit (default: [book] repository)")
      ->type_name("URL");
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand

  bb::cli::add_site_command(app, ctx);
  bb::cli::add_epub_command(app, ctx);
  bb::cli::add_latex_command(app, ctx);
  bb::cli::add_pdf_command(app, ctx);
  bb::cli::add_check_command(app, ctx);
  bb::cli::add_calc_command(app, ctx);
  bb::cli::add_init_command(app, ctx);
  bb::cli::add_completion_command(app);

  // Global options are resolved before any subcommand callback runs.
  app.parse_complete_callback([&] {
    ctx.global.book_dir = book.empty() ? default_book_dir() : fs::absolute(book).lexically_normal();
    ctx.global.out_given = !out.empty();
    ctx.global.out_dir = out.empty() ? ctx.global.book_dir / "build" : fs::absolute(out).lexically_normal();
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors exit 2, like the calc commands' bad input
  } catch (const bb::FatalError& e) {
    std::cerr << "bookbuild: error: " << bb::escape_controls(e.what()) << '\n';
    return e.exit_code;
  } catch (const std::exception& e) {
    std::cerr << "bookbuild: internal error: " << bb::escape_controls(e.what()) << '\n';
    return 3;
  }
  return ctx.exit_code;
}
