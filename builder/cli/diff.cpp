// `bookbuild diff [BASE [HEAD]]`: the numbers that move between two revisions of the book, in every
// edition (docs/diff.md). Revisions are read with libgit2 into private folders (never a checkout);
// each side is loaded and resolved like `check numbers`, its numbers taken, and the two compared.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "check/numbers_check.hpp"
#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "diff/compare.hpp"
#include "diff/render.hpp"
#include "diff/snapshot.hpp"
#include "repo/revision_tree.hpp"

namespace bb::cli {

namespace {

struct DiffOptions {
  std::vector<std::string> revisions;  // BASE [HEAD]
  std::string format = "text";
};

// One side loaded from `root` and its numbers taken. nullopt when its configuration cannot be read
// (the diagnostics are printed: that side has no book to compare).
std::optional<diff::Snapshot> take_side(const Context& ctx, const std::filesystem::path& root, bool print) {
  Context side = ctx;
  side.global.book_dir = root;
  if (!ctx.global.out_given) side.global.out_dir = root / "build";
  BookSession s("check");
  if (!s.load(side) || !s.book) {
    if (print) s.report(side);
    return std::nullopt;
  }
  check::NumbersCheck numbers(*s.book, false, s.diags, s.engine.get());
  for (const auto& eb : s.book->editions) numbers.add_edition(eb, s.diags);
  const check::NumbersReport report = numbers.finish(*s.book, s.resolution, s.diags);
  diff::Snapshot snap = diff::take_snapshot(*s.book, s.resolution, report);
  snap.errors = s.diags.error_count();
  return snap;
}

int run_diff(const Context& ctx, const DiffOptions& o) {
  const auto& book = ctx.global.book_dir;
  std::string error;
  std::optional<repo::Revision> base = o.revisions.empty()
                                           ? repo::default_base(book, error)
                                           : repo::resolve_revision(book, o.revisions[0], error);
  std::optional<repo::Revision> head;
  if (base && o.revisions.size() == 2) head = repo::resolve_revision(book, o.revisions[1], error);
  if (!base || (o.revisions.size() == 2 && !head)) {
    std::cerr << "bookbuild diff: " << error << '\n';
    return 2;
  }
  const auto started = std::chrono::steady_clock::now();
  auto base_tree = repo::BookAtRevision::read(book, *base, error);
  std::optional<repo::BookAtRevision> head_tree =
      base_tree && head ? repo::BookAtRevision::read(book, *head, error) : std::nullopt;
  if (!base_tree || (head && !head_tree)) {
    std::cerr << "bookbuild diff: " << error << '\n';
    return 2;
  }
  auto before = take_side(ctx, base_tree->root(), false);
  auto after = take_side(ctx, head_tree ? head_tree->root() : book, true);
  if (!after) return 1;
  if (!before) before.emplace();  // no book at the base: every number is new
  const diff::Report report = diff::compare(*before, *after);
  const diff::Sides sides{base->spec, base->commit, head ? head->spec : "working tree",
                          head ? head->commit : ""};
  std::cout << (o.format == "json"       ? diff::render_json(report, sides)
                : o.format == "markdown" ? diff::render_markdown(report, sides)
                                         : diff::render_text(report, sides));
  if (std::getenv("BOOKBUILD_TIMINGS"))
    std::cerr << "  diff: "
              << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                       started)
                     .count()
              << " ms\n";
  return 0;
}

}  // namespace

void define_diff_command(CLI::App* sub, Context& ctx) {
  auto o = std::make_shared<DiffOptions>();
  sub->add_option("revisions", o->revisions,
                  "BASE [HEAD]: git revisions (a branch, tag, hash, HEAD~1). Default BASE: the merge-base of "
                  "HEAD with the default branch; default HEAD: the work tree as it is")
      ->expected(0, 2)
      ->type_name("REV");
  sub->add_option("--format", o->format,
                  "text (default), markdown (a pull request's job summary or comment) or json (docs/diff.md)")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->type_name("FORMAT");
  sub->callback([&ctx, o] { ctx.exit_code = run_diff(ctx, *o); });
}

}  // namespace bb::cli
