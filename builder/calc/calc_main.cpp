// `bookbuild-calc`: a standalone front end for the calc command until the main `bookbuild`
// executable includes it (then `bookbuild calc ...` does the same).
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"bookbuild calc: the resource model behind the book's numbers"};
  app.require_subcommand(1);
  bb::cli::Context ctx;
  app.add_option("--book", ctx.global.book_dir, "book folder (contains calculations/)");
  bb::cli::add_calc_command(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;  // usage errors are bad input
  }
  return ctx.exit_code;
}
