// bookbuild: the command-line entry point. The app and its subcommands are defined in cli/app.cpp.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "diag/diagnostics.hpp"
#include "diag/progress.hpp"
#include "inputs/record.hpp"

int main(int argc, char** argv) {
  bb::inputs::begin_run(argc, argv);  // notes what the run looks at, for a record of it (site, epub, latex)
  bb::cli::Context ctx;
  auto app = bb::cli::make_app(ctx, std::vector<std::string_view>(argv + 1, argv + argc));
  try {
    app->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (auto unknown = bb::cli::unknown_command(*app, std::vector<std::string_view>(argv + 1, argv + argc))) {
      std::cerr << "bookbuild: error: " << bb::escape_controls(*unknown)
                << "\nRun with --help for more information.\n";
      return 2;
    }
    int code = app->exit(e);
    return code == 0 ? 0 : 2;  // usage errors exit 2, like the calc commands' bad input
  } catch (const bb::FatalError& e) {
    std::cerr << "bookbuild: error: " << bb::escape_controls(e.what()) << '\n';
    return e.exit_code;
  } catch (const std::exception& e) {
    std::cerr << "bookbuild: internal error: " << bb::escape_controls(e.what()) << '\n';
    return 3;
  }
  bb::progress().clear();  // a run that ends while a status line is shown leaves a clean line
  return ctx.exit_code;
}
