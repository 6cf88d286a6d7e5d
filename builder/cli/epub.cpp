// `bookbuild epub`: Write an EPUB 3 per edition.
#include "cli/pending.hpp"

namespace bb::cli {

void add_epub_command(CLI::App& app, Context& ctx) {
  CLI::App* sub = add_pending_command(app, ctx, "epub", "Write an EPUB 3 per edition", "issue 6");
  sub->add_option("--edition", "Edition id");
}

}  // namespace bb::cli
