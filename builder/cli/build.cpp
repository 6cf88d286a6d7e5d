// `bookbuild build [--edition E]... [--no-pdf]`: every output of the book in one run — a PDF and an
// EPUB per edition, then the site that links them as downloads — and the build record
// <out>/build.json. XeLaTeX, the slow part, runs for several editions at once on other threads; the
// EPUBs follow the PDFs, whose page records give them their print page lists (docs/epub.md).
// `--lfs-include` prints instead the book's files a build reads, for `git lfs pull --include`.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <future>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "cli/book_session.hpp"
#include "cli/build_record.hpp"
#include "cli/commands.hpp"
#include "diag/parallel.hpp"
#include "epub/epub.hpp"
#include "highlight/highlight.hpp"
#include "inputs/inputs.hpp"
#include "math/mathml.hpp"
#include "output/staging.hpp"
#include "site/site.hpp"
#include "typeset/build.hpp"
#include "typeset/xelatex.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

struct BuildCommand {
  std::vector<std::string> editions;
  bool no_pdf = false;
  bool lfs_include = false;
};

// What one XeLaTeX run of a large CJK book takes at its peak (measured: docs/benchmarks.md), with room
// to spare: the editions typeset at once are as many as the cores and the free memory allow.
constexpr std::uint64_t kTypesetBytes = 1ULL << 30;

std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;  // unknown: one at a time
}

std::size_t typeset_workers(std::size_t jobs) {
  const std::size_t cores = core_count();
  const std::size_t memory = std::max<std::uint64_t>(1, available_memory() / kTypesetBytes);
  return std::max<std::size_t>(1, std::min({cores, memory, jobs}));
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One edition's PDF, typeset on a worker thread with diagnostics of its own.
struct PdfJob {
  std::size_t edition = 0;
  typeset::LatexBook tex;
  Diagnostics diags;
  std::optional<fs::path> pdf;
  double seconds = 0;
};

// Runs the jobs on `workers` threads; returns when all are done.
void typeset_all(const book::Book& book, std::deque<PdfJob>& jobs, const typeset::BuildOptions& options,
                 std::size_t workers) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      PdfJob& j = jobs[i];
      auto t0 = Clock::now();
      j.pdf = typeset::typeset_pdf(book, book.editions[j.edition], j.tex, options, j.diags);
      j.seconds = since(t0);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

// The EPUBs, from copies of the chapter trees (the EPUB writer rewrites the trees it is given, and the
// site is rendered from the same book afterwards).
std::vector<fs::path> write_epubs(const Context& ctx, BookSession& s, BuildRecord& record) {
  epub::EpubOptions o = epub_options(ctx);
  o.repository = s.resolution.repository;
  const std::time_t modified = epub::source_time(*s.book, o);
  std::vector<epub::EpubOutput> outputs;
  for (auto& eb : s.book->editions) {
    auto t0 = Clock::now();
    std::vector<doc::Node> kept;
    for (const auto& c : eb.chapters) kept.push_back(c.root);
    outputs.push_back(epub::render_epub(*s.book, eb, o, modified, s.diags));
    for (std::size_t i = 0; i < kept.size(); ++i) eb.chapters[i].root = std::move(kept[i]);
    record.jobs.emplace_back("epub " + eb.edition.id, since(t0));
  }
  return epub::write_epubs(outputs, o, s.diags);
}

// The site, once the EPUBs and PDFs it links are in place.
bool write_site(const Context& ctx, BookSession& s) {
  site::SiteOptions so;
  so.figure_cache = output::cache_dir(ctx.global.out_dir) / "figures";
  so.search_cache = output::cache_dir(ctx.global.out_dir) / "search";
  so.tool = tool_identity();
  so.out = ctx.global.out_dir;
  site::SiteWriter writer(*s.book, s.resolution, so, s.diags, ctx.global.out_dir / "site");
  for (std::size_t e = 0; e < s.book->editions.size(); ++e) writer.add_edition(e);
  if (s.diags.has_errors()) return false;
  site::SiteSummary summary = writer.finish();
  if (summary.written && !ctx.global.quiet)
    std::cerr << "site: " << summary.pages << " pages written to " << (ctx.global.out_dir / "site").string()
              << '\n';
  return summary.written;
}

// Stages each edition's LaTeX folder here (the writers and the figure cache are not shared between
// threads), then typesets them all on worker threads while `meanwhile` runs on this one.
template <typename Meanwhile>
void build_pdfs_and(const Context& ctx, BookSession& s, BuildRecord& record, std::vector<fs::path>& written,
                    Meanwhile meanwhile) {
  const typeset::BuildOptions options{ctx.global.out_dir, ctx.global.quiet, true};
  std::deque<PdfJob> jobs;  // a deque: a job holds its Diagnostics (a mutex) and never moves
  for (std::size_t e = 0; e < s.book->editions.size(); ++e) {
    auto t0 = Clock::now();
    if (auto tex = typeset::build_latex(*s.book, s.book->editions[e], options, s.diags)) {
      jobs.emplace_back();
      jobs.back().edition = e;
      jobs.back().tex = std::move(*tex);
    }
    record.jobs.emplace_back("latex " + s.book->editions[e].edition.id, since(t0));
  }
  if (s.diags.has_errors()) jobs.clear();
  const std::size_t workers = typeset_workers(jobs.size());
  // The worker pool runs beside `meanwhile`: one thread fewer for XeLaTeX while this one is busy.
  auto pdfs = std::async(std::launch::async, [&] { typeset_all(*s.book, jobs, options, workers); });
  meanwhile();
  pdfs.get();
  for (auto& j : jobs) {
    for (const auto& d : j.diags.all()) s.diags.add(d);
    record.jobs.emplace_back("pdf " + s.book->editions[j.edition].edition.id, j.seconds);
    if (j.pdf) written.push_back(*j.pdf);
  }
}

// The PDFs are asked for and XeLaTeX is missing: an error at the book's configuration (book.toml, or
// the source edition's first chapter in the real book's layout) naming what to install, so that a
// build never passes without the files a release ships.
void require_typesetter(BookSession& s) {
  try {
    typeset::require_xelatex();
  } catch (const FatalError& e) {
    const book::Config& cfg = s.book->config;
    const book::Edition& source = cfg.source();
    SourceLoc loc{cfg.config_file, 1, 1};
    if (cfg.config_file.empty())
      loc.path = source.chapters.empty() ? cfg.root / source.folder
                                         : cfg.root / source.folder / source.chapters.front().file;
    s.diags.error(loc, std::string(e.what()) + "; or pass --no-pdf to build the rest without the PDFs");
  }
}

int run_build(Context& ctx, const BuildCommand& opt, BookSession& s, BuildRecord& record,
              std::vector<fs::path>& written) {
  const auto t0 = Clock::now();
  const bool pdf = !opt.no_pdf;
  use_output_caches(ctx);
  auto load0 = Clock::now();
  const bool loaded = s.load(ctx, opt.editions);
  if (pdf && s.book) require_typesetter(s);
  if (!loaded || s.diags.has_errors()) return s.report(ctx);
  record.jobs.emplace_back("load", since(load0));
  record.commit = s.resolution.repository.commit;
  for (const auto& eb : s.book->editions) record.editions.push_back(eb.edition.id);
  auto epubs = [&] {
    auto files = write_epubs(ctx, s, record);
    written.insert(written.end(), files.begin(), files.end());
  };
  // Each EPUB after the PDFs: its page list is read from the page record its PDF's run left.
  if (pdf) build_pdfs_and(ctx, s, record, written, [] {});
  epubs();
  if (s.diags.has_errors()) return s.report(ctx);
  auto site0 = Clock::now();
  if (!write_site(ctx, s)) return s.report(ctx);
  record.jobs.emplace_back("site", since(site0));
  written.push_back(ctx.global.out_dir / "site");
  highlight::save_cache();
  std::ostringstream printed;
  s.diags.print(printed, ctx.global.book_dir);
  for (auto& w : warning_lines(printed.str())) record.warnings.push_back(std::move(w));
  record.seconds = since(t0);
  return s.report(ctx);
}

// A path as `git lfs pull --include` reads it (a comma separates patterns; `*?[\\` are wildcards): ""
// when it cannot be written there.
std::string lfs_pattern(const fs::path& relative) {
  std::string p = relative.generic_string();
  return p.find_first_of(",*?[]\\") == std::string::npos ? p : "";
}

// `build --lfs-include`: the book's files a build reads, relative to the repository's top level and
// joined by commas — what the book is loaded from (noted as it is read: inputs/inputs.hpp) and the
// folders it reads as a whole (calculations/, the book's templates/) — so that CI fetches exactly
// those Git LFS objects. Nothing is built.
int print_lfs_include(Context& ctx, const BuildCommand& opt) {
  BookSession s;
  if (!s.load(ctx, opt.editions) || s.diags.has_errors()) return s.report(ctx);
  const fs::path top =
      s.resolution.repository.toplevel.empty() ? s.book->config.root : s.resolution.repository.toplevel;
  const fs::path out = fs::weakly_canonical(ctx.global.out_dir);
  std::set<std::string> patterns;
  auto add = [&](const fs::path& path, const std::string& suffix) {
    const fs::path rel = fs::weakly_canonical(path).lexically_relative(top);
    const fs::path in_out = fs::weakly_canonical(path).lexically_relative(out);
    if (rel.empty() || *rel.begin() == ".." || *rel.begin() == ".git" || rel == "." ||
        (!in_out.empty() && *in_out.begin() != ".."))
      return;
    const std::string p = lfs_pattern(rel);
    if (p.empty())
      s.diags.error({path, 0, 0},
                    "cannot be named in `git lfs pull --include` (a comma or a wildcard in its path)");
    else
      patterns.insert(p + suffix);
  };
  const inputs::Noted noted = inputs::noted();
  for (const auto& f : noted.files)
    if (fs::is_regular_file(f)) add(f, "");
  for (const auto& t : noted.trees)
    if (fs::is_directory(t)) add(t, "/**");
  if (fs::is_directory(s.book->config.root / "templates")) add(s.book->config.root / "templates", "/**");
  // The files the writers read that loading does not note: book.toml, the covers, the site's icon.
  const book::Config& cfg = s.book->config;
  for (const fs::path& f : {cfg.config_file, cfg.favicon})
    if (!f.empty()) add(f, "");
  for (const auto& eb : s.book->editions)
    for (const fs::path& cover : {eb.edition.cover, fs::path("cover.png"), fs::path("cover.jpg")})
      if (const fs::path c = cfg.root / eb.edition.folder / cover; !cover.empty() && fs::is_regular_file(c))
        add(c, "");
  if (s.diags.has_errors()) return s.report(ctx);
  std::string joined;
  for (const auto& p : patterns) joined += (joined.empty() ? "" : ",") + p;
  std::cout << joined << '\n';
  return 0;
}

}  // namespace

void define_build_command(CLI::App* sub, Context& ctx) {
  auto opt = std::make_shared<BuildCommand>();
  add_edition_option(sub, opt->editions);
  sub->add_flag("--no-pdf", opt->no_pdf, "Leave out the PDFs (and XeLaTeX)");
  sub->add_flag("--lfs-include", opt->lfs_include,
                "Build nothing: print the book's files the build reads, comma-separated, for `git lfs pull "
                "--include`");
  sub->callback([&ctx, opt] {
    if (opt->lfs_include) {
      ctx.exit_code = print_lfs_include(ctx, *opt);
      return;
    }
    RecordedRun run(ctx);
    if (run.replayed()) return;
    BookSession s;
    BuildRecord record;
    record.tool = tool_identity();
    record.version = BOOKBUILD_VERSION;
    std::vector<fs::path> written;
    ctx.exit_code = run_build(ctx, *opt, s, record, written);
    if (ctx.exit_code == 0) {
      const fs::path json = ctx.global.out_dir / "build.json";
      output::write_file_atomic(json, build_record_json(record, ctx.global.out_dir, written));
      if (!ctx.global.quiet) std::cerr << "build: " << json.string() << '\n';
      written.push_back(json);
    }
    run.finish(ctx.exit_code, written);
  });
}

}  // namespace bb::cli
