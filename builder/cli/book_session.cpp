// Loading a book for a subcommand, and reporting what was found.
#include "cli/book_session.hpp"

#include <iostream>
#include <utility>
#include <vector>

#include "book/config_report.hpp"
#include "book/parse_store.hpp"
#include "bookfilters/filtered_store.hpp"
#include "cli/calc_evaluator.hpp"
#include "diag/progress.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "lang/language.hpp"
#include "modules/modules.hpp"
#include "output/staging.hpp"
#include "writers/template.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

// The folders bookbuild replaces wholesale under --out: a source folder inside one of them would be
// deleted by the next build, so such an --out is refused before anything is written.
void refuse_outputs_over_sources(const book::Config& config, const fs::path& out, Diagnostics& diags) {
  std::error_code ec;
  fs::path out_dir = fs::weakly_canonical(out, ec);
  auto inside = [](const fs::path& p, const fs::path& dir) {
    fs::path rel = p.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
  };
  std::vector<std::pair<fs::path, std::string>> sources;
  for (const auto& e : config.editions)
    sources.emplace_back(fs::weakly_canonical(config.root / e.folder, ec), "the folder of edition " + e.id);
  sources.emplace_back(fs::weakly_canonical(config.calculations, ec), "the calculations folder");
  if (!config.config_file.empty()) sources.emplace_back(config.config_file, "book.toml");
  SourceLoc at{config.config_file.empty() ? config.root : config.config_file, 0, 0};
  const std::string_view managed_folders[] = {"site", "epub", "latex", "pdf", output::kCacheFolder};
  for (std::string_view managed : managed_folders) {
    fs::path dir = out_dir / managed;
    for (const auto& [src, what] : sources)
      if (inside(src, dir))
        diags.error(at, "--out " + out.string() + " would replace " + dir.string() + ", which holds " + what +
                            "; choose another --out");
  }
}

}  // namespace

RecordedRun::RecordedRun(const Context& ctx) : out_(ctx.global.out_dir) {
  // A status line is not printed again, so a run that shows one neither writes nor uses a record.
  wanted_ = inputs::records_wanted() && !bb::progress().enabled();
  if (!wanted_) return;
  // The modules are bookbuild too: one rebuilt (or another one chosen) is another tool.
  for (auto m : {modules::Module::Pdf, modules::Module::Svg, modules::Module::Zip, modules::Module::Xml,
                 modules::Module::Highlight, modules::Module::Git})
    inputs::note_file(modules::module_path(m));
  replayed_ = inputs::replay(out_);
  if (replayed_) return;
  inputs::forget(out_);  // whatever happens next, the last run's record no longer says what is there
  capture_.emplace();
}

void RecordedRun::finish(int exit_code, const std::vector<fs::path>& outputs) {
  if (!wanted_ || replayed_) return;
  if (exit_code == 0) inputs::save(out_, outputs, *capture_);
  capture_.reset();
}

void use_output_caches(const Context& ctx) {
  highlight::use_cache(output::cache_dir(ctx.global.out_dir) / "highlight.bin");
  book::use_parse_store(output::cache_dir(ctx.global.out_dir) / "parsed");
  bookfilters::use_filtered_store(output::cache_dir(ctx.global.out_dir) / "filtered");
  lang::use_cache(output::cache_dir(ctx.global.out_dir) / "languages.bin");
}

namespace {

std::optional<book::Config> load_checked_config(const Context& ctx, Diagnostics& diags) {
  auto config = book::load_config(ctx.global.book_dir, diags);
  if (!config) return std::nullopt;
  if (!ctx.global.repository.empty()) {
    config->repository = ctx.global.repository;
    config->origins["repository"] = "--repository";
  }
  if (ctx.global.verbose && !ctx.global.quiet)
    for (const auto& line : book::describe_config(*config)) std::cerr << "config: " << line << '\n';
  refuse_outputs_over_sources(*config, ctx.global.out_dir, diags);
  writers::use_book_templates(config->root / "templates");  // the book's own look, where it has one
  return config;
}

// The evaluator of computed numbers; `engine` becomes the engine behind it (null when the book has no
// calculations folder), for the checks to use after the resolution.
std::optional<filters::Evaluator> load_evaluator(const book::Book& book, Diagnostics& diags,
                                                 std::shared_ptr<calc::Engine>* engine = nullptr) {
  try {
    auto made = make_engine(book.config.calculations);
    if (engine) *engine = made;
    if (!made) return std::nullopt;
    return make_evaluator(std::move(made));
  } catch (const std::exception& e) {
    diags.error({book.config.calculations, 0, 0}, std::string("cannot load the calc data: ") + e.what());
  }
  return std::nullopt;
}

}  // namespace

bool BookSession::load(const Context& ctx, const std::vector<std::string>& editions, SessionCache* cache) {
  auto config = load_checked_config(ctx, diags);
  if (!config) return false;
  book = book::load_book(std::move(*config), diags, editions, cache ? &cache->parsed : nullptr);
  std::optional<filters::Evaluator> local;
  std::optional<filters::Evaluator>& evaluator = cache ? cache->evaluator : local;
  if (!cache || !cache->evaluator_loaded) {
    evaluator = load_evaluator(*book, diags, cache ? nullptr : &engine);
    if (cache && evaluator) cache->evaluator_loaded = true;
  }
  filters::ResolveOptions options;
  options.evaluate = evaluator ? &*evaluator : nullptr;
  options.format = format;
  if (cache && cache->repository) options.repository = &*cache->repository;
  resolution = filters::resolve(*book, diags, options);
  if (cache) cache->repository = resolution.repository;
  return true;
}

namespace {

// The last edition's chapter trees are not freed one node at a time: every command that loads a book
// edition by edition ends once it has reported, and freeing the trees was ~5% of a warm LaTeX or
// EPUB build (callgrind: `_int_free` and `Node::~Node`, ~2.5 M instructions on the corpus). They go
// to a holder that lives until the process exits, reachable from a global (so that leak checkers do
// not report them). Only one-shot commands call load_each; `site --serve` keeps its own trees.
void keep_until_exit(book::EditionBook& edition) {
  static auto* kept = new std::vector<doc::Node>();
  for (auto& c : edition.chapters) {
    kept->push_back(std::move(c.root));
    c.root = doc::Node(doc::Kind::Document, {c.path, 0, 0});
  }
}

}  // namespace

bool BookSession::load_each(const Context& ctx, const std::vector<std::string>& editions,
                            const std::function<void(std::size_t)>& each) {
  auto config = load_checked_config(ctx, diags);
  if (!config) return false;
  book = book::book_outline(std::move(*config), diags, editions);
  std::optional<filters::Evaluator> evaluator = load_evaluator(*book, diags, &engine);
  filters::ResolveOptions options;
  options.evaluate = evaluator ? &*evaluator : nullptr;
  options.format = format;
  resolution = filters::begin_resolution(*book, options);
  const bool clean_start = !diags.has_errors();
  for (std::size_t e = 0; e < book->editions.size(); ++e) {
    const std::size_t errors = diags.error_count();
    book::load_edition(*book, e, diags);
    filters::resolve_edition(*book, e, resolution, diags, options);
    edition_clean = clean_start && diags.error_count() == errors;
    each(e);
    if (e + 1 < book->editions.size())
      book::unload_edition(*book, e);
    else
      keep_until_exit(book->editions[e]);
  }
  filters::finish_resolution(*book, resolution, diags);
  return true;
}

int report_diagnostics(const Diagnostics& diags, const Context& ctx, const fs::path& base) {
  diags.print(std::cerr, base, ctx.global.quiet ? PrintStyle::OneLine : PrintStyle::Full);
  diags.print_summary(std::cerr);
  if (diags.has_errors()) return 1;
  if (ctx.global.max_warnings < 0) return 0;
  // As the summary counts them: the same warning at the same place once.
  std::size_t warnings = 0;
  for (const auto& d : diags.all()) warnings += d.severity == Severity::Warning;
  if (warnings <= static_cast<std::size_t>(ctx.global.max_warnings)) return 0;
  std::cerr << "bookbuild: error: " << warnings << " warnings, more than --max-warnings "
            << ctx.global.max_warnings << '\n';
  return 1;
}

int BookSession::report(const Context& ctx) const {
  return report_diagnostics(diags, ctx, ctx.global.book_dir);
}

}  // namespace bb::cli
