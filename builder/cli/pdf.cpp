// `bookbuild pdf`: Typeset the PDF with XeLaTeX.
#include "cli/pending.hpp"

namespace bb::cli {

void add_pdf_command(CLI::App& app, Context& ctx) {
  CLI::App* sub = add_pending_command(app, ctx, "pdf", "Typeset the PDF with XeLaTeX", "issue 7");
  sub->add_option("--edition", "Edition id");
}

}  // namespace bb::cli
