// The subcommands of `bookbuild`: one file per subcommand in builder/cli/, each adding itself to the app.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace bb::epub {
struct EpubOptions;
}  // namespace bb::epub

namespace bb::cli {

// Options every subcommand accepts, parsed before the subcommand runs.
struct GlobalOptions {
  std::filesystem::path book_dir;  // --book DIR (default: the repository containing the current directory)
  std::filesystem::path out_dir;   // --out DIR (default: <book>/build)
  bool out_given = false;
  bool quiet = false;      // --quiet: no progress output; diagnostics one line each
  long max_warnings = -1;  // --max-warnings N: more warnings than N fail the run; -1: no limit
  bool verbose = false;    // --verbose: also where each configuration value came from
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

// The command line for parsing `args` (argv without the program name): the same app, except that a
// subcommand none of the arguments names is only outlined (its name and summary, all that `--help`
// and a usage error show of it). Defining the options of every subcommand is most of a run's start-up
// (the calc subcommands alone are a third of `--version`'s instructions). `completion` and `manpage`
// describe the whole app, so naming either defines them all.
std::unique_ptr<CLI::App> make_app(Context& ctx, const std::vector<std::string_view>& args);

// When the command line names a command that does not exist (`bookbuild chek`, `bookbuild calc
// forwrd`): the message saying so, with the nearest command and the list. Checked when parsing fails,
// so that the user reads this rather than "A subcommand is required".
std::optional<std::string> unknown_command(const CLI::App& app, const std::vector<std::string_view>& args);

// The manual page bookbuild.1 (roff) for an app made by make_app (cli/manpage.cpp).
void write_manpage(const CLI::App& app, std::ostream& out);

// `--edition E` (repeatable): the editions a subcommand builds or checks; none given means all.
void add_edition_option(CLI::App* sub, std::vector<std::string>& editions);

// Each subcommand's options and action, on the subcommand make_app created with its name and summary.
void define_build_command(CLI::App* sub, Context& ctx);
void define_site_command(CLI::App* sub, Context& ctx);
void define_epub_command(CLI::App* sub, Context& ctx);
// The EPUB options every command that writes EPUBs starts from (out folder, caches, MathML).
epub::EpubOptions epub_options(const Context& ctx);
void define_latex_command(CLI::App* sub, Context& ctx);
void define_pdf_command(CLI::App* sub, Context& ctx);
void define_check_command(CLI::App* sub, Context& ctx);
void define_diff_command(CLI::App* sub, Context& ctx);
void define_calc_command(CLI::App* sub, Context& ctx);
void define_chart_command(CLI::App* sub, Context& ctx);
void define_init_command(CLI::App* sub, Context& ctx);
void define_completion_command(CLI::App* sub);  // describes sub's parent, the whole app
void define_manpage_command(CLI::App* sub);

}  // namespace bb::cli
