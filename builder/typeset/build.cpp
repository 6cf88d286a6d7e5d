// Staging and running the LaTeX path for one edition.
#include "typeset/build.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "book/output_names.hpp"
#include "output/staging.hpp"
#include "pages/page_record.hpp"
#include "text/digest.hpp"
#include "typeset/fonts.hpp"
#include "typeset/log_report.hpp"
#include "typeset/tex_log.hpp"
#include "typeset/typeset_stamp.hpp"
#include "typeset/xelatex.hpp"

namespace bb::typeset {

namespace fs = std::filesystem;

std::optional<StagedLatex> stage_latex(const book::Book& book, const book::EditionBook& eb,
                                       const BuildOptions& options, Diagnostics& diags) {
  StagedLatex s;
  s.target = options.out / "latex" / eb.edition.id;
  s.edition = eb.edition.id;
  s.chapters = eb.chapters.size();
  std::size_t errors = diags.error_count();
  PlannedLatex plan = plan_latex_book(book, eb, diags, output::cache_dir(options.out) / "figures");
  if (diags.error_count() > errors) return std::nullopt;
  s.result = {s.target / kTexName, std::move(plan.marks), plan.figures, {}};
  if (fs::path xelatex = options.typeset ? xelatex_program() : fs::path(); !xelatex.empty())
    s.result.key = typeset_key(plan.folder, xelatex);
  // A folder that already holds exactly this is left alone: writing it aside and swapping it in
  // would give the same files, at the price of a link and an unlink per figure.
  if (latex_folder_is(s.target, plan.folder)) {
    output::remove_stale_siblings(s.target);
    return s;
  }
  s.staged = std::make_unique<output::StagedDir>(s.target);
  write_latex_folder(plan.folder, s.staged->path());
  for (const char* aux : {"book.aux", "book.toc", "book.out"}) {
    std::error_code ec;
    if (fs::exists(s.target / aux)) fs::copy_file(s.target / aux, s.staged->path() / aux, ec);
  }
  return s;
}

LatexBook commit_latex(StagedLatex& s, const BuildOptions& options) {
  if (s.staged) s.staged->commit();
  s.result.tex = s.target / kTexName;
  if (!options.quiet)
    std::cerr << "latex: " << s.edition << ": " << s.result.tex.string() << " (" << s.chapters
              << " chapters, " << s.result.figures << " figures)\n";
  return s.result;
}

std::optional<LatexBook> build_latex(const book::Book& book, const book::EditionBook& eb,
                                     const BuildOptions& options, Diagnostics& diags) {
  auto staged = stage_latex(book, eb, options, diags);
  if (!staged) return std::nullopt;
  return commit_latex(*staged, options);
}

namespace {

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One line, written whole: editions typeset in parallel each print theirs.
void print_done(const std::string& edition, const fs::path& pdf, const std::string& how) {
  std::cerr << ("pdf: " + edition + ": " + pdf.string() + " (" + how + ")\n");
}

// Where each block of the edition landed in the PDF just made or kept, from the run's .aux, kept
// for the edition's EPUB (builder/pages/). Losing it costs the EPUB its page list, not the PDF: a
// failure to write it is not an error.
void record_pages(const book::EditionBook& eb, const fs::path& aux, std::string_view pdf,
                  const fs::path& out) {
  std::vector<std::pair<std::string, const doc::Node*>> chapters;
  for (const auto& c : eb.chapters) chapters.emplace_back(c.key, &c.root);
  pages::PageRecord record{text::checksum64(pdf), pages::blocks_digest(chapters),
                           pages::parse_aux(read_file(aux))};
  try {
    pages::save_record(pages::record_path(output::cache_dir(out), eb.edition.id), record);
  } catch (const FatalError&) {
  }
}

}  // namespace

std::optional<fs::path> typeset_pdf(const book::Book& book, const book::EditionBook& eb, const LatexBook& tex,
                                    const BuildOptions& options, Diagnostics& diags) {
  fs::path pdf = options.out / "pdf" / book::output_file(book.config, eb.edition, ".pdf");
  const TypesetStamp stamp{output::cache_dir(options.out) / "pdf", eb.edition.id};
  if (auto log = tex.key.empty() ? std::nullopt : stamped_log(stamp, tex.key, pdf)) {
    report_layout_problems(parse_tex_log(*log), tex.marks, tex.tex, Severity::Warning, diags);
    record_pages(eb, tex.tex.parent_path() / "book.aux", read_file(pdf), options.out);
    if (!options.quiet) print_done(eb.edition.id, pdf, "unchanged, no XeLaTeX pass");
    return pdf;
  }
  forget_stamp(stamp);
  if (!check_fonts(eb.edition.print, diags)) return std::nullopt;  // before XeLaTeX, at book.toml's line
  TypesetOptions t;
  t.dir = tex.tex.parent_path();
  t.marks = tex.marks;
  t.book_root = book.config.root;
  t.label = eb.edition.id;
  TypesetResult r = typeset(t, diags);
  if (!r.ok) return std::nullopt;
  const std::string bytes = read_file(r.pdf);
  fs::create_directories(pdf.parent_path());
  output::write_file_atomic(pdf, bytes);
  if (!tex.key.empty()) save_stamp(stamp, tex.key, bytes, read_file(t.dir / "book.log"));
  record_pages(eb, t.dir / "book.aux", bytes, options.out);
  if (!options.quiet) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", r.seconds);
    print_done(eb.edition.id, pdf,
               std::to_string(r.passes) + " XeLaTeX pass" + (r.passes == 1 ? "" : "es") + ", " + seconds);
  }
  return pdf;
}

std::optional<fs::path> build_pdf(const book::Book& book, const book::EditionBook& eb,
                                  const BuildOptions& options, Diagnostics& diags) {
  BuildOptions typesetting = options;
  typesetting.typeset = true;  // the PDF's stamp is the folder's key
  auto tex = build_latex(book, eb, typesetting, diags);
  if (!tex) return std::nullopt;
  return typeset_pdf(book, eb, *tex, typesetting, diags);
}

}  // namespace bb::typeset
