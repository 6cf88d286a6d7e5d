// `bookbuild calc` until the calc library is linked in.
#include "cli/pending.hpp"

namespace bb::cli {

void add_calc_command(CLI::App& app, Context& ctx) {
  add_pending_command(app, ctx, "calc", "Run the book's resource model", "issue 3");
}

}  // namespace bb::cli
