// The subcommands of `bookbuild`: one file per subcommand in builder/cli/, each adding itself to the app.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bb::cli {

// Options every subcommand accepts, parsed before the subcommand runs.
struct GlobalOptions {
  std::filesystem::path book_dir;  // --book DIR (default: the repository containing the current directory)
  std::filesystem::path out_dir;   // --out DIR (default: <book>/build)
  bool out_given = false;
  bool quiet = false;      // --quiet: no progress output
  std::string repository;  // --repository URL: overrides [book] repository for every output
};

// Shared by all subcommands: the parsed global options and the process exit code the subcommand
// sets. Exit codes: 0 success, 1 problems found in the book, 2 bad usage or bad input to a command.
struct Context {
  GlobalOptions global;
  int exit_code = 0;
};

// "bookbuild VERSION (commit HASH)", as --version prints it; also part of the keys of what the
// output folder's cache keeps between runs.
std::string tool_identity();

// The whole command line (cli/app.cpp): global options and every subcommand, writing into `ctx`.
std::unique_ptr<CLI::App> make_app(Context& ctx);

// The manual page bookbuild.1 (roff) for an app made by make_app (cli/manpage.cpp).
void write_manpage(const CLI::App& app, std::ostream& out);

// `--edition E` (repeatable): the editions a subcommand builds or checks; none given means all.
void add_edition_option(CLI::App* sub, std::vector<std::string>& editions);

void add_site_command(CLI::App& app, Context& ctx);
void add_epub_command(CLI::App& app, Context& ctx);
void add_latex_command(CLI::App& app, Context& ctx);
void add_pdf_command(CLI::App& app, Context& ctx);
void add_check_command(CLI::App& app, Context& ctx);
void add_calc_command(CLI::App& app, Context& ctx);
void add_init_command(CLI::App& app, Context& ctx);
void add_completion_command(CLI::App& app);
void add_manpage_command(CLI::App& app);

}  // namespace bb::cli
