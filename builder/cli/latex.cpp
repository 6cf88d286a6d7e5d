// `bookbuild latex`: Write LaTeX for XeLaTeX.
#include "cli/pending.hpp"

namespace bb::cli {

void add_latex_command(CLI::App& app, Context& ctx) {
  CLI::App* sub = add_pending_command(app, ctx, "latex", "Write LaTeX for XeLaTeX", "issue 7");
  sub->add_option("--edition", "Edition id");
}

}  // namespace bb::cli
