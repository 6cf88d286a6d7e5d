// `bookbuild epub [--edition E]... [--all]`: writes <out>/epub/<name>-<edition>.epub per edition.
#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "epub/epub.hpp"
#include "highlight/highlight.hpp"
#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "writers/escape.hpp"

namespace bb::cli {

namespace {

struct EpubCommand {
  std::vector<std::string> editions;
  bool all = false;
  std::string name;
  std::string cover;
};

// MathML from builder/math. Unsupported TeX was already reported at its place by the formula check
// (filters/math_check.cpp), which stops the build before any writer runs.
}  // namespace

epub::EpubOptions epub_options(const Context& ctx) {
  epub::EpubOptions o;
  o.out = ctx.global.out_dir / "epub";
  o.figure_cache = output::cache_dir(ctx.global.out_dir) / "figures";
  o.archive_cache = output::cache_dir(ctx.global.out_dir) / "epub";
  o.print_out = ctx.global.out_dir;  // the page list of a PDF built there before (docs/epub.md)
  o.quiet = ctx.global.quiet;
  o.math = [](const doc::Node& n, Diagnostics&) {
    const auto& r = math::to_mathml_cached(n.text, n.kind == doc::Kind::DisplayMath);
    return epub::MathMarkup{r.mathml, true};
  };
  return o;
}

void define_epub_command(CLI::App* sub, Context& ctx) {
  auto opt = std::make_shared<EpubCommand>();
  add_edition_option(sub, opt->editions);
  sub->add_flag("--all", opt->all, "Every edition (the default when no --edition is given)");
  sub->add_option("--name", opt->name,
                  "File name stem: <out>/epub/STEM-<edition>.epub (default: the repository's or the book "
                  "folder's name)")
      ->type_name("STEM");
  sub->add_option("--cover", opt->cover,
                  "Cover image (default: cover.png or cover.jpg in the edition folder)")
      ->type_name("FILE");
  sub->callback([&ctx, opt] {
    RecordedRun run(ctx);
    if (run.replayed()) return;
    BookSession s("epub");
    use_output_caches(ctx);
    std::vector<std::string> only = opt->all ? std::vector<std::string>{} : opt->editions;
    epub::EpubOptions o = epub_options(ctx);
    o.name = opt->name;
    if (!opt->cover.empty()) o.cover = std::filesystem::absolute(opt->cover);
    std::optional<std::time_t> modified;
    std::vector<epub::EpubOutput> outputs;  // zipped, held until every edition is known to be clean
    // One edition at a time: its trees are dropped once its EPUB is zipped.
    bool loaded = s.load_each(ctx, only, [&](std::size_t e) {
      if (!modified) {
        o.repository = s.resolution.repository;
        modified = epub::source_time(*s.book, o);
      }
      if (s.edition_clean)
        outputs.push_back(epub::render_epub(*s.book, s.book->editions[e], o, *modified, s.diags));
    });
    std::vector<std::filesystem::path> written;
    if (loaded) written = epub::write_epubs(outputs, o, s.diags);
    if (loaded && !s.diags.has_errors()) highlight::save_cache();
    ctx.exit_code = s.report(ctx);
    run.finish(ctx.exit_code, written);
  });
}

}  // namespace bb::cli
