// `bookbuild latex [--edition E]...`: writes a self-contained LaTeX book per edition into
// <out>/latex/<edition>/ (see docs/latex.md).
#include <CLI/CLI.hpp>

#include <vector>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "highlight/highlight.hpp"
#include "typeset/build.hpp"

namespace bb::cli {

void define_latex_command(CLI::App* sub, Context& ctx) {
  auto editions = std::make_shared<std::vector<std::string>>();
  add_edition_option(sub, *editions);
  sub->callback([&ctx, editions] {
    RecordedRun run(ctx);
    if (run.replayed()) return;
    BookSession s("latex");
    use_output_caches(ctx);
    // One edition at a time: each is written aside while its trees are loaded, and every edition
    // is swapped in at the end, only when the whole book had no errors.
    std::vector<typeset::StagedLatex> staged;
    const typeset::BuildOptions options{ctx.global.out_dir, ctx.global.quiet};
    bool loaded = s.load_each(ctx, *editions, [&](std::size_t e) {
      if (s.diags.has_errors()) return;  // nothing will be swapped in
      if (auto st = typeset::stage_latex(*s.book, s.book->editions[e], options, s.diags))
        staged.push_back(std::move(*st));
    });
    if (loaded && !s.diags.has_errors()) {
      for (auto& st : staged) typeset::commit_latex(st, options);
      highlight::save_cache();
    }
    staged.clear();  // what was written aside and not swapped in is removed
    ctx.exit_code = s.report(ctx);
    std::vector<std::filesystem::path> written;
    if (s.book)
      for (const auto& e : s.book->editions) written.push_back(ctx.global.out_dir / "latex" / e.edition.id);
    run.finish(ctx.exit_code, written);
  });
}

}  // namespace bb::cli
