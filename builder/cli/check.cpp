// `bookbuild check [what]`: parses and resolves the whole book and runs the checks that apply.
// Each check also runs alone: parse, refs, links, numbers, math.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "calc/scenario_file.hpp"
#include "check/citations_suggest.hpp"
#include "check/epub_check.hpp"
#include "check/epubcheck.hpp"
#include "check/manuscript_edits.hpp"
#include "check/numbers_check.hpp"
#include "check/numbers_suggest.hpp"
#include "check/pdf_check.hpp"
#include "check/refusals.hpp"
#include "check/site_check.hpp"
#include "cli/book_session.hpp"
#include "cli/commands.hpp"
#include "inputs/inputs.hpp"
#include "output/staging.hpp"
#include "site/meta.hpp"

namespace bb::cli {

namespace {

struct CheckOptions {
  std::vector<std::string> whats;  // none: all
  std::string what = "all";        // the one check of `whats` (or "all"); see `wants`
  [[nodiscard]] bool wants(std::string_view check) const {
    return std::find(whats.begin(), whats.end(), check) != whats.end();
  }
  std::vector<std::string> editions;
  bool dump = false;
  bool strict = false;
  bool lock = false;     // numbers: write numbers.lock anew
  bool suggest = false;  // numbers: propose bindings for typed numbers
  bool apply = false;    // numbers --suggest: write them into the manuscripts
  bool diff = false;     // numbers --suggest: print them as a unified diff
  std::string format = "text";
  std::string output;
  std::vector<std::string> epubs;  // check epub: these files (default: every <out>/epub/*.epub)
  bool no_epubcheck = false;       // check epub: bookbuild's own checks only
};

// Counts of what the front end recognised, per chapter: a quick way to see that a manuscript was
// understood (figures with captions, display formulas, tables, footnote references).
// What `check parse` prints of an edition: its chapters and what each holds.
void print_inventory(const book::EditionBook& e, std::ostream& out) {
  out << e.edition.id << " (" << e.edition.lang << "): " << e.chapters.size() << " chapters\n";
  for (const auto& c : e.chapters) {
    std::map<std::string, int> n;
    doc::walk(c.root, [&](const doc::Node& x) {
      switch (x.kind) {
        case doc::Kind::Figure: ++n[x.caption().empty() ? "figures without caption" : "figures"]; break;
        case doc::Kind::DisplayMath: ++n["display math"]; break;
        case doc::Kind::InlineMath: ++n["inline math"]; break;
        case doc::Kind::Table: ++n["tables"]; break;
        case doc::Kind::FootnoteRef: ++n["footnote refs"]; break;
        case doc::Kind::Callout: ++n["callouts"]; break;
        case doc::Kind::Heading: ++n["headings"]; break;
        case doc::Kind::CrossRef: ++n["references"]; break;
        case doc::Kind::CalcNumber: ++n["computed numbers"]; break;
        default: break;
      }
    });
    out << "  " << c.key << "  " << c.title << "\n    ";
    bool first = true;
    for (const auto& [k, v] : n) {
      out << (first ? "" : ", ") << v << ' ' << k;
      first = false;
    }
    out << '\n';
  }
}

// The real book's cited results recomputed by their calculation: how many, equal, stale, and why the
// others were not recomputed.
void print_recompute_summary(const check::RecomputeReport& r, std::ostream& out) {
  std::map<std::string, int> reasons;
  for (const auto& x : r.results)
    if (x.status == calc::RecomputeStatus::NotRecomputed) ++reasons[x.reason];
  out << "recomputed cited results: " << r.equal + r.stale << " (" << r.equal << " equal, " << r.stale
      << " stale), " << r.not_recomputed << " not recomputed";
  std::string sep = " (";
  for (const auto& [reason, n] : reasons) out << sep << n << ' ' << reason, sep = ", ";
  out << (reasons.empty() ? "\n" : ")\n");
}

void print_numbers_summary(const filters::Resolution& r, const check::NumbersReport& report,
                           std::ostream& out) {
  int placeholders = 0, literals = 0, bad = 0;
  for (const auto& b : r.bindings) {
    (b.literal ? literals : placeholders)++;
    if (!b.ok) ++bad;
  }
  out << "numbers: " << placeholders << " computed, " << literals << " bound literals, " << bad
      << " mismatches, " << report.parity_errors << " translation differences, " << report.structure_errors
      << " structure differences between editions\n";
  out << "results: " << report.results.scenarios << " scenarios recomputed, "
      << report.results.stale_scenarios << " stale (cited at " << report.results.citations_of_stale
      << " lines), " << report.results.catalogue_problems << " catalogue values differing from their sources"
      << (report.results.not_recomputed ? ", " + std::to_string(report.results.not_recomputed) +
                                              " scenarios of the real book's form not recomputed"
                                        : std::string())
      << "\n";
  const auto& c = report.citations;
  out << "citations: " << c.typed << " typed numbers with units, " << c.citing << " in text citing a result, "
      << c.checked.size() << " checked, " << c.unchecked.size() << " unchecked, " << c.waived.size()
      << " waived, " << c.mismatches.size() << " mismatches, " << c.missing.size()
      << " citations of results not in the book\n";
  auto by = [&](const char* what, const std::vector<check::CitationEntry>& list, bool how) {
    if (list.empty()) return;
    out << "  " << what << ":";
    for (const auto& [k, n] : check::citation_counts(list, how)) out << ' ' << k << ' ' << n;
    out << '\n';
  };
  by("checked by", c.checked, true);
  by("unchecked because", c.unchecked, false);
  // What to fetch to check them: the data files those numbers cite that the book lacks, most first.
  std::map<std::string, int> lacking;
  for (const auto& e : c.unchecked)
    for (const auto& name : e.missing) ++lacking["calculations/" + name];
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [name, n] : lacking) order.emplace_back(-n, name);
  std::sort(order.begin(), order.end());
  for (const auto& [n, name] : order)
    out << "    " << name << " (not in the book): " << -n << (n == -1 ? " number\n" : " numbers\n");
  if (c.lock_entries > 0 || c.not_in_lock > 0)
    out << "  numbers.lock: " << c.lock_entries << " entries; " << c.not_in_lock
        << " citing numbers checked by the rules alone, not in the lock (check numbers --lock adds them)\n";
  if (report.lock_written) {
    int locked = 0, open = 0, waived = 0;
    for (const auto& e : report.lock.entries)
      (!e.field.empty() ? locked : !e.waive.empty() ? waived : open)++;
    out << "numbers.lock written: " << report.lock.entries.size() << " entries (" << locked << " locked, "
        << open << " open, " << waived << " waived); " << report.lock.added << " added, "
        << report.lock.changed << " changed, " << report.lock.removed << " removed\n";
    for (const auto& line : report.lock.changes) out << "  " << line << '\n';
  }
  out << "cited results: " << c.cited.size() << ", " << c.recomputed.size() << " recomputed, "
      << c.not_recomputed.size() << " read as committed (not recomputed)\n";
  print_recompute_summary(report.recompute, out);
  std::map<std::pair<std::string, std::string>, int> per;
  for (const auto& u : report.unbound) ++per[{u.edition, u.chapter}];
  out << "numbers with units typed unchecked: " << report.unbound.size() << (per.empty() ? "\n" : "\n");
  for (const auto& [k, n] : per) out << "  " << k.first << '/' << k.second << ": " << n << '\n';
  out << "numbers marked deliberately typed ([...]{.typed}): " << report.typed.size() << '\n';
}

// `check numbers --suggest [--diff | --apply]`: one line per proposal — calc bindings for a book with
// scenarios, result bindings for numbers its citations bind — then the counts; `--diff` prints the
// proposals as a unified diff instead (or writes it to --output), `--apply` rewrites the manuscripts.
void suggest(const book::Book& book, calc::Engine* engine, const CheckOptions& opt, Diagnostics& diags,
             const std::filesystem::path& root) {
  const std::filesystem::path base = root.empty() ? book.config.root : root;
  std::ostringstream lines;
  auto place = [&](const SourceLoc& loc) {
    lines << loc.path.lexically_relative(base).generic_string() << ':' << loc.line << ':' << loc.col
          << ": suggest: ";
  };
  std::vector<check::ManuscriptEdit> edits;
  // The calc library's proposals need scenarios of bookbuild's own form to compare with (not the real
  // book's topics, nor an LFS pointer).
  check::SuggestReport calc_report;
  const bool scenarios =
      engine && calc::read_scenario_file(book.config.calculations).form == calc::ScenarioForm::Scenarios;
  if (scenarios) {
    calc_report = check::suggest_bindings(book, diags, engine);
    for (const auto& s : calc_report.suggestions) {
      place(s.number.loc);
      lines << '`' << s.number.text << "` -> [" << s.literal << "]{calc=" << s.expr << "}";
      if (!s.other.empty()) lines << " (also equal: " << s.other.size() << ")";
      lines << '\n';
    }
    edits = check::suggestion_edits(calc_report);
  }
  // A number the calc library recomputes is better bound to it than to the committed file it cites.
  auto cited = check::suggest_citation_bindings(book);
  std::erase_if(cited, [&](const check::CitationSuggestion& c) {
    return std::any_of(calc_report.suggestions.begin(), calc_report.suggestions.end(),
                       [&](const check::Suggestion& s) {
                         const SourceLoc &a = s.number.loc, &b = c.number.loc;
                         return a.path == b.path && a.line == b.line && a.col == b.col;
                       });
  });
  for (const auto& c : cited) {
    place(c.number.loc);
    lines << '`' << c.number.text << "` -> " << c.edit.replacement
          << " (= " << nlohmann::json(c.number.value).dump() << ")";
    if (c.number.others > 0) lines << " (also equal: " << c.number.others << ")";
    lines << '\n';
    edits.push_back(c.edit);
  }
  const auto outcome = check::edit_manuscripts(edits, base, opt.apply);
  if (opt.diff) {
    if (opt.output.empty())
      std::cout << outcome.diff;
    else
      output::write_file_atomic(opt.output, outcome.diff);
  } else {
    std::cout << lines.str();
  }
  std::ostream& summary = opt.diff && opt.output.empty() ? std::cerr : std::cout;
  if (scenarios)
    summary << "suggest: " << calc_report.typed << " typed numbers with a unit or count noun, "
            << calc_report.readable << " expressible as bound literals, " << calc_report.suggestions.size()
            << " with a proposal\n";
  summary << "suggest: " << cited.size()
          << " numbers bound by their citations, proposed as result= literals\n";
  summary << "suggest: " << outcome.applied << " edits in " << outcome.files_changed << " files "
          << (opt.apply ? "applied" : "proposed (dry run: --diff shows them as a patch, --apply writes them)")
          << '\n';
}

// `check epub`: the given files, or every EPUB the last `bookbuild epub` wrote.
int check_epubs(const Context& ctx, std::vector<std::string> files, bool use_epubcheck) {
  namespace fs = std::filesystem;
  if (files.empty()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(ctx.global.out_dir / "epub", ec))
      if (e.path().extension() == ".epub") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) {
    std::cerr << "check epub: no EPUB given and none in " << (ctx.global.out_dir / "epub").string() << '\n';
    return 2;
  }
  Diagnostics diags;
  auto epubcheck = use_epubcheck ? check::epubcheck_command() : std::nullopt;
  for (const auto& f : files) {
    check::check_epub(f, diags);
    if (epubcheck) check::run_epubcheck(*epubcheck, f, diags);
  }
  const int code = report_diagnostics(diags, ctx, {});
  if (code == 0 && !ctx.global.quiet)
    std::cerr << "check epub: " << files.size() << " EPUB(s), no problems found"
              << (epubcheck ? " (with epubcheck)" : " (epubcheck not run)") << '\n';
  return code;
}

}  // namespace

void define_check_command(CLI::App* sub, Context& ctx) {
  auto opt = std::make_shared<CheckOptions>();
  sub->add_option("what", opt->whats,
                  "Which checks: all (default), or any of parse, refs, links, numbers, math, site (the built "
                  "site), epub, pdf (`check site epub pdf`: the outputs of `build`)")
      ->type_name("CHECK")
      ->check(CLI::IsMember({"all", "parse", "refs", "links", "numbers", "math", "site", "epub", "pdf"}));
  sub->add_option("--file", opt->epubs,
                  "check epub: the EPUB to check (repeatable; default: <out>/epub/*.epub)")
      ->type_name("FILE");
  sub->add_flag("--no-epubcheck", opt->no_epubcheck,
                "check epub: do not run epubcheck, only bookbuild's own checks (run where it is installed)");
  add_edition_option(sub, opt->editions);
  sub->add_flag("--dump", opt->dump, "Print the resolved document tree of every chapter");
  sub->add_flag("--strict", opt->strict,
                "numbers: a number with a unit that is not computed or bound is an error");
  sub->add_flag("--lock", opt->lock,
                "numbers: write numbers.lock, every number in text citing a result locked to its field "
                "(docs/numbers.md, \"The lock\"); prints what changed");
  sub->add_flag("--suggest", opt->suggest,
                "numbers: propose a binding for every typed number that equals a computed result");
  sub->add_flag("--apply", opt->apply,
                "numbers --suggest: rewrite the manuscripts with the proposed bound literals");
  sub->add_flag("--diff", opt->diff,
                "numbers --suggest: print the proposed bound literals as a unified diff (to --output FILE "
                "if given); nothing is written to the manuscripts");
  sub->add_option("--format", opt->format, "Report format: text (default) or json (numbers)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--output", opt->output, "Write the JSON report to this file instead of stdout")
      ->type_name("FILE");
  sub->callback([&ctx, opt] {
    inputs::stop();  // no record is kept of this command
    if (opt->whats.empty() || opt->wants("all")) opt->whats = {"all"};
    opt->what = opt->whats.size() == 1 ? opt->whats.front() : "several";
    // The EPUBs are checked as files, without the book; with other checks, after them.
    int epub_code = 0;
    if (opt->wants("epub")) {
      epub_code = check_epubs(ctx, opt->epubs, !opt->no_epubcheck);
      std::erase(opt->whats, "epub");
      if (opt->whats.empty()) {
        ctx.exit_code = epub_code;
        return;
      }
      opt->what = opt->whats.size() == 1 ? opt->whats.front() : "several";
    }
    BookSession s("check");
    use_output_caches(ctx);
    if (opt->suggest || opt->apply || opt->diff) {
      if (opt->apply && opt->diff) {
        std::cerr << "check numbers: --diff shows the proposals, --apply writes them: give one\n";
        ctx.exit_code = 2;
        return;
      }
      if (s.load(ctx, opt->editions)) suggest(*s.book, s.engine.get(), *opt, s.diags, ctx.global.book_dir);
      ctx.exit_code = s.report(ctx);
      return;
    }
    // One edition at a time: what the checks read of an edition's trees is taken while they are
    // loaded, and the reports are printed at the end, in the order they always had.
    const bool numbers_wanted = opt->what == "all" || opt->wants("numbers");
    std::optional<check::NumbersCheck> numbers_check;
    std::ostringstream inventory, dump;
    bool loaded = s.load_each(ctx, opt->editions, [&](std::size_t e) {
      const book::EditionBook& eb = s.book->editions[e];
      if (numbers_wanted) {
        if (!numbers_check) {
          numbers_check.emplace(*s.book, opt->strict, s.diags, s.engine.get());
          numbers_check->write_lock(opt->lock);
        }
        numbers_check->add_edition(eb, s.diags);
      }
      // What an output would refuse is refused here too, in the outputs' own words (check/refusals.hpp).
      if (opt->what == "all" || opt->wants("links")) {
        Diagnostics::Scope scope(s.diags, "links");
        check::check_figures(*s.book, eb, output::cache_dir(ctx.global.out_dir) / "figures", s.diags);
      }
      if (opt->what == "all" || opt->wants("pdf")) {
        Diagnostics::Scope scope(s.diags, "pdf");
        check::check_print_fonts(eb, s.diags);
      }
      if (opt->dump)
        for (const auto& c : eb.chapters)
          dump << "== " << eb.edition.id << ' ' << c.key << '\n' << doc::dump(c.root);
      else if (!ctx.global.quiet && (opt->what == "all" || opt->wants("parse")))
        print_inventory(eb, inventory);
    });
    if (loaded) {
      // What the site build warns of its configuration, `check` warns too (the same verdict); its
      // notes are no verdict, and not repeated here.
      if (opt->what == "all" || opt->wants("site")) {
        Diagnostics::Scope scope(s.diags, "site");
        site::meta::warn_without_site_url(s.book->config, s.diags, false);
      }
      if (opt->wants("pdf") ||
          (opt->what == "all" && std::filesystem::is_directory(ctx.global.out_dir / "pdf"))) {
        Diagnostics::Scope scope(s.diags, "pdf");
        check::check_pdfs(*s.book, ctx.global.out_dir, s.diags, std::cout);
      }
      if (opt->wants("site") ||
          (opt->what == "all" && std::filesystem::is_directory(ctx.global.out_dir / "site"))) {
        Diagnostics::Scope scope(s.diags, "site");
        auto st = check::check_site(ctx.global.out_dir / "site", s.diags,
                                    site::meta::site_root_path(s.book->config));
        if (!ctx.global.quiet)
          std::cout << "site: " << st.pages << " pages, " << st.links << " internal links, " << st.problems
                    << " problems\n";
      }
      check::NumbersReport numbers;
      if (numbers_wanted) {
        if (!numbers_check) numbers_check.emplace(*s.book, opt->strict, s.diags, s.engine.get());
        numbers = numbers_check->finish(*s.book, s.resolution, s.diags);
      }
      if (opt->what != "all") s.diags.keep_checks(opt->whats);
      if (opt->format == "json") {
        std::string json = check::numbers_report_json(*s.book, s.resolution, numbers, s.diags);
        if (opt->output.empty())
          std::cout << json;
        else
          output::write_file_atomic(opt->output, json);
      } else if (opt->dump) {
        std::cout << dump.str();
      } else if (!ctx.global.quiet) {
        std::cout << inventory.str();
        if (numbers_wanted) print_numbers_summary(s.resolution, numbers, std::cout);
      }
    }
    ctx.exit_code = std::max(s.report(ctx), epub_code);
    std::string named;
    for (const auto& w : opt->whats) named += (named.empty() ? "" : " ") + w;
    if (ctx.exit_code == 0 && !ctx.global.quiet) std::cerr << "check " << named << ": no errors\n";
  });
}

}  // namespace bb::cli
