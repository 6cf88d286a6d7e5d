// `bookbuild latex [--edition E]...`: writes a self-contained LaTeX book per edition into
// <out>/latex/<edition>/ (see docs/latex.md).
#include <CLI/CLI.hpp>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "highlight/highlight.hpp"
#include "latex/build.hpp"

namespace bb::cli {

void define_latex_command(CLI::App* sub, Context& ctx) {
  auto editions = std::make_shared<std::vector<std::string>>();
  add_edition_option(sub, *editions);
  sub->callback([&ctx, editions] {
    BookSession s;
    use_highlight_cache(ctx);
    if (s.load(ctx, *editions) && !s.diags.has_errors()) {
      for (const auto& eb : s.book->editions)
        latex::build_latex(*s.book, eb, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
      if (!s.diags.has_errors()) highlight::save_cache();
    }
    ctx.exit_code = s.report(ctx);
  });
}

}  // namespace bb::cli
