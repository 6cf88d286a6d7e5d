// `bookbuild pdf [--edition E]...`: writes the LaTeX book and typesets it with XeLaTeX into
// <out>/pdf/<name>-<edition>.pdf. TeX errors are reported at the manuscript line that caused them.
#include <CLI/CLI.hpp>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "typeset/build.hpp"
#include "typeset/xelatex.hpp"

namespace bb::cli {

void define_pdf_command(CLI::App* sub, Context& ctx) {
  auto editions = std::make_shared<std::vector<std::string>>();
  add_edition_option(sub, *editions);
  sub->callback([&ctx, editions] {
    inputs::stop();  // no record is kept of this command
    // Checked first: without XeLaTeX there is nothing this command can do (exit 2, as for bad usage).
    typeset::require_xelatex();
    BookSession s("latex");
    use_output_caches(ctx);
    // The whole book at once, not one edition at a time: nothing is typeset while any edition has
    // errors, and XeLaTeX, not the trees, is what a PDF build waits for.
    if (s.load(ctx, *editions) && !s.diags.has_errors()) {
      for (const auto& eb : s.book->editions)
        typeset::build_pdf(*s.book, eb, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
      if (!s.diags.has_errors()) highlight::save_cache();
    }
    ctx.exit_code = s.report(ctx);
  });
}

}  // namespace bb::cli
