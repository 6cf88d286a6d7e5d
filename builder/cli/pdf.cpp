// `bookbuild pdf [--edition E]... [--chapter N]`: writes the LaTeX book and typesets it with XeLaTeX
// into <out>/pdf/<name>-<edition>.pdf (a sample of one chapter: <name>-<edition>-chNN.pdf). TeX errors
// are reported at the manuscript line that caused them.
#include <CLI/CLI.hpp>

#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "typeset/build.hpp"
#include "typeset/xelatex.hpp"

namespace bb::cli {

namespace {

// The edition with only chapter `number`, resolved with the whole book (its references to other
// chapters keep their numbers), under an id of its own so that it is written beside the book, not
// over it: latex/<id>-chNN/, pdf/<name>-<id>-chNN.pdf.
std::optional<book::EditionBook> chapter_sample(const book::EditionBook& eb, int number, Diagnostics& diags) {
  for (const auto& c : eb.chapters) {
    if (c.number != number) continue;
    book::EditionBook sample{eb.edition, {c}, std::nullopt};
    sample.edition.id += "-" + c.key;
    // A book that names its PDF (`download-name`) would otherwise get the sample under the book's name,
    // over the whole book's PDF.
    if (!sample.edition.download_name.empty()) sample.edition.download_name += "-" + c.key;
    return sample;
  }
  diags.error({eb.edition.folder, 0, 0}, "--chapter " + std::to_string(number) + ": edition `" +
                                             eb.edition.id + "` has no such chapter");
  return std::nullopt;
}

}  // namespace

void define_pdf_command(CLI::App* sub, Context& ctx) {
  auto editions = std::make_shared<std::vector<std::string>>();
  add_edition_option(sub, *editions);
  auto chapter = std::make_shared<int>(-1);
  sub->add_option("--chapter", *chapter,
                  "Only chapter N (0: the preface), with the book's front matter: a sample PDF named "
                  "<name>-<edition>-chNN.pdf")
      ->check(CLI::Range(0, 999))
      ->type_name("N");
  sub->callback([&ctx, editions, chapter] {
    inputs::stop();  // no record is kept of this command
    // Checked first: without XeLaTeX there is nothing this command can do (exit 2, as for bad usage).
    typeset::require_xelatex();
    BookSession s("latex");
    use_output_caches(ctx);
    // The whole book at once, not one edition at a time: nothing is typeset while any edition has
    // errors, and XeLaTeX, not the trees, is what a PDF build waits for.
    if (s.load(ctx, *editions) && !s.diags.has_errors()) {
      for (const auto& eb : s.book->editions) {
        if (*chapter < 0) {
          typeset::build_pdf(*s.book, eb, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
          continue;
        }
        if (auto sample = chapter_sample(eb, *chapter, s.diags))
          typeset::build_pdf(*s.book, *sample, {ctx.global.out_dir, ctx.global.quiet}, s.diags);
      }
      if (!s.diags.has_errors()) highlight::save_cache();
    }
    ctx.exit_code = s.report(ctx);
  });
}

}  // namespace bb::cli
