// The bookbuild executable end to end: exit codes, diagnostics with places, and the fixture book.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

std::string book(const std::string& name) {
  return "--book '" + (test::fixtures() / "books" / name).string() + "'";
}

// An output folder outside the source tree for runs on a fixture book (check keeps a figure cache
// in it): the fixtures stay as committed.
fs::path scratch_out() {
  static const fs::path dir = fs::temp_directory_path() / ("bb-cli-scratch-" + std::to_string(::getpid()));
  return dir;
}

TEST(Cli, VersionAndHelp) {
  auto v = test::run_bookbuild("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("bookbuild "), std::string::npos);
  EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out;
  for (const char* sub :
       {"", "site ", "epub ", "latex ", "pdf ", "check ", "calc ", "init ", "completion "}) {
    auto h = test::run_bookbuild(std::string(sub) + "--help");
    EXPECT_EQ(h.exit_code, 0) << sub;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << sub;
  }
}

// The completion scripts are written from the CLI definitions: every subcommand and a subcommand's
// own option appear, and an unknown shell is a usage error.
TEST(Cli, CompletionScriptsNameEverySubcommand) {
  for (const char* shell : {"bash", "zsh"}) {
    auto r = test::run_bookbuild(std::string("completion ") + shell);
    EXPECT_EQ(r.exit_code, 0) << shell;
    for (const char* word : {"site", "epub", "latex", "pdf", "check", "diff", "calc", "init", "completion",
                             "--with-downloads", "--language"})
      EXPECT_NE(r.out.find(word), std::string::npos) << shell << " lacks " << word;
  }
  // A flag takes no value: after `--serve` bash offers options again, after `--port` it does not.
  auto bash = test::run_bookbuild("completion bash").out;
  const std::size_t site = bash.find("    site) opts+=");
  ASSERT_NE(site, std::string::npos) << bash;
  const std::string line = bash.substr(site, bash.find('\n', site) - site);
  const std::string values =
      line.substr(line.find("values+="), line.find("; dirs+=") - line.find("values+="));
  EXPECT_NE(values.find("--port"), std::string::npos) << line;
  EXPECT_EQ(values.find("--serve"), std::string::npos) << line;
  EXPECT_EQ(bash.find("manpage"), std::string::npos);  // hidden
  EXPECT_EQ(test::run_bookbuild("completion fish").exit_code, 2);
}

// What a user can see of a command line: every command's name, summary and group, and every option's
// names, description and group, depth first.
std::string describe(const CLI::App& app, const std::string& indent = "") {
  std::string out = indent + app.get_name() + " [" + app.get_group() + "] " + app.get_description() + "\n";
  for (const CLI::Option* o : app.get_options())
    out +=
        indent + "  " + o->get_name(false, true) + " [" + o->get_group() + "] " + o->get_description() + "\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out += describe(*sub, indent + "  ");
  return out;
}

// main() parses with an app whose subcommands the arguments do not name are only outlined: --help
// and usage errors read the same as with the whole app, a named subcommand is the whole app's, and
// `completion` and `manpage`, which print the whole app, get it.
TEST(Cli, OutlinedSubcommandsReadAsTheWholeApp) {
  cli::Context whole_ctx;
  auto whole = cli::make_app(whole_ctx);
  auto subcommand = [](const CLI::App& app, const std::string& name) -> const CLI::App* {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == name) return sub;
    return nullptr;
  };
  auto outline = [](const CLI::App& app) {
    std::string out;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      out += sub->get_name() + " [" + sub->get_group() + "] " + sub->get_description() + "\n";
    return out;
  };
  const std::vector<std::vector<std::string_view>> runs = {{},
                                                           {"--help"},
                                                           {"latex", "--edition", "zh"},
                                                           {"-q", "--out", "o", "site"},
                                                           {"calc", "params", "--help"},
                                                           {"check", "numbers"},
                                                           {"init", "--language", "zh"}};
  for (const auto& args : runs) {
    cli::Context ctx;
    auto app = cli::make_app(ctx, args);
    std::string label;
    for (auto a : args) label += std::string(a) + " ";
    EXPECT_EQ(outline(*app), outline(*whole)) << label;
    for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
      const CLI::App* full = subcommand(*whole, sub->get_name());
      ASSERT_NE(full, nullptr) << sub->get_name();
      if (std::find(args.begin(), args.end(), sub->get_name()) != args.end()) {
        EXPECT_EQ(describe(*sub), describe(*full)) << label;
      } else {
        EXPECT_LE(sub->get_options().size(), 1u) << label << sub->get_name();  // --help only
        EXPECT_TRUE(sub->get_subcommands([](const CLI::App*) { return true; }).empty()) << label;
      }
    }
  }
  for (std::string_view whole_app : {"completion", "manpage"}) {
    cli::Context ctx;
    const std::vector<std::string_view> args = {whole_app};
    EXPECT_EQ(describe(*cli::make_app(ctx, args)), describe(*whole)) << whole_app;
  }
  // The executable parses with the outlined app: a named subcommand's options work, others' are unknown.
  EXPECT_EQ(test::run_bookbuild("latex --serve").exit_code, 2);
  EXPECT_EQ(test::run_bookbuild("site --edition nosuch --help").exit_code, 0);
}

TEST(Cli, UnknownSubcommandIsUsageError) {
  auto r = test::run_bookbuild("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, CheckOnGoodBookSucceeds) {
  auto r = test::run_bookbuild(book("mini") + " --out '" + scratch_out().string() + "' check");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("zh (zh-Hans): 2 chapters"), std::string::npos) << r.out;
}

TEST(Cli, TreeOfTheFixtureBookMatchesGolden) {
  auto r = test::run_bookbuild(book("mini") + " --out '" + scratch_out().string() + "' check --dump");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Paths in the dump are absolute; make them relative to the fixture folder.
  std::string out = r.out;
  std::string base = (test::fixtures() / "books" / "mini").string() + "/";
  for (std::size_t p; (p = out.find(base)) != std::string::npos;) out.erase(p, base.size());
  test::expect_golden(test::fixtures() / "books" / "mini.tree", out);
}

TEST(Cli, AllProblemsOfARunAreReportedWithPlaces) {
  auto r = test::run_bookbuild(book("broken") + " --out '" + scratch_out().string() + "' check");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.err.find(
          "manuscripts/chapter01.md:3:27: error: footnote `[^missing]` is referenced but never defined"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("manuscripts/chapter01.md:5:1: error: display math opened with `$$` is never closed"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("manuscripts/chapter02.md:3:10: error: unclosed `{{`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 errors"), std::string::npos) << r.err;
}

TEST(Cli, FailedSiteBuildLeavesNoHalfWrittenOutput) {
  fs::path out = fs::temp_directory_path() / ("bb-cli-out-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto r = test::run_bookbuild(book("broken") + " --out '" + out.string() + "' site");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(fs::exists(out / "site"));
  auto ok = test::run_bookbuild(book("mini") + " --out '" + out.string() + "' site");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(out / "site" / "index.html"));
  EXPECT_TRUE(fs::exists(out / "site" / "en" / "ch01.html"));
  EXPECT_TRUE(fs::exists(out / "site" / "img" / "bw.svg"));
  fs::remove_all(out);
}

// The book is read and written one edition at a time (docs/pipeline.md), but an error in the second
// edition still holds back every output: the first edition's LaTeX, written aside before the error
// was found, is not swapped in, and no staged folder is left behind.
TEST(Cli, AnErrorInALaterEditionHoldsBackEveryOutput) {
  test::TempDir tmp("bb-cli-edition-error");
  fs::copy(test::fixtures() / "books" / "mini", tmp.path / "book", fs::copy_options::recursive);
  std::ofstream(tmp.path / "book" / "book-en" / "chapter01.md", std::ios::app)
      << "\n## Twice {#sec:twice}\n\n## Twice again {#sec:twice}\n";
  const std::string args =
      "--book '" + (tmp.path / "book").string() + "' -q --out '" + (tmp.path / "out").string() + "' ";
  auto latex = test::run_command("'" BOOKBUILD_EXE "' " + args + "latex");
  EXPECT_EQ(latex.exit_code, 1);
  EXPECT_NE(latex.err.find("chapter01.md"), std::string::npos) << latex.err;
  EXPECT_FALSE(fs::exists(tmp.path / "out" / "latex" / "zh"));
  EXPECT_FALSE(fs::exists(tmp.path / "out" / "latex" / "en"));
  if (fs::exists(tmp.path / "out" / "latex"))
    for (const auto& f : fs::directory_iterator(tmp.path / "out" / "latex")) ADD_FAILURE() << f.path();
  for (const char* job : {"epub --all", "site"}) {
    auto r = test::run_command("'" BOOKBUILD_EXE "' " + args + job);
    EXPECT_EQ(r.exit_code, 1) << job;
  }
  EXPECT_FALSE(fs::exists(tmp.path / "out" / "epub"));
  EXPECT_FALSE(fs::exists(tmp.path / "out" / "site"));
  for (const auto& f : fs::directory_iterator(tmp.path / "out")) {  // no staged folder left behind
    const std::string name = f.path().filename().string();
    EXPECT_TRUE(name == ".cache" || !name.starts_with(".")) << f.path();
  }
}

// The XML and highlighting modules (figures/modules.hpp) are loaded by the runs that need them only:
// with both pointing nowhere, the version still prints, while the LaTeX and site of a book with SVG
// figures (cleaned by libxml2: figures/svg_clean.hpp) and the site check, which parses pages, stop on
// the module they cannot load.
TEST(Cli, XmlAndHighlightModulesAreLoadedOnlyWhenNeeded) {
  fs::path out = fs::temp_directory_path() / ("bb-cli-modules-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto without_modules = [&](const std::string& args) {
    return test::run_command(
        "BOOKBUILD_XML_MODULE=/nonexistent/bookbuild_xml.so "
        "BOOKBUILD_HIGHLIGHT_MODULE=/nonexistent/bookbuild_highlighter.so '" BOOKBUILD_EXE "' " +
        args);
  };
  auto version = without_modules("--version");
  EXPECT_EQ(version.exit_code, 0) << version.err;
  for (const char* job : {"latex", "site"}) {
    auto r = without_modules(book("mini") + " -q --out '" + out.string() + "' " + job);
    EXPECT_NE(r.exit_code, 0) << job;
    EXPECT_NE(r.err.find("/nonexistent/bookbuild_xml.so"), std::string::npos) << job << ": " << r.err;
  }
  ASSERT_EQ(test::run_bookbuild(book("mini") + " -q --out '" + out.string() + "' site").exit_code, 0);
  auto check = without_modules(book("mini") + " -q --out '" + out.string() + "' check site");
  EXPECT_NE(check.exit_code, 0);
  EXPECT_NE(check.err.find("/nonexistent/bookbuild_xml.so"), std::string::npos) << check.err;
  auto with_modules = test::run_bookbuild(book("mini") + " -q --out '" + out.string() + "' check site");
  EXPECT_EQ(with_modules.exit_code, 0) << with_modules.err;
  // A book with code blocks (the one `init` writes) still builds without the highlighting module, its
  // code as plain text, and says why once.
  fs::path fresh = out / "new-book";
  ASSERT_EQ(test::run_bookbuild("init '" + fresh.string() + "'").exit_code, 0);
  auto plain = test::run_command(
      "BOOKBUILD_HIGHLIGHT_MODULE=/nonexistent/bookbuild_highlighter.so '" BOOKBUILD_EXE "' --book '" +
      fresh.string() + "' -q --out '" + (out / "fresh").string() + "' site");
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(
      plain.err.find("code blocks are not highlighted: cannot load /nonexistent/bookbuild_highlighter.so"),
      std::string::npos)
      << plain.err;
  fs::remove_all(out);
}

// Whether a run of bookbuild loaded the highlighting module, from the dynamic loader's own log.
struct Traced {
  test::RunResult run;
  bool highlighter_loaded = false;
};

Traced traced(const std::string& args, const fs::path& log_dir) {
  fs::remove_all(log_dir);
  fs::create_directories(log_dir);
  Traced t;
  t.run = test::run_command("LD_DEBUG=files LD_DEBUG_OUTPUT='" + (log_dir / "ld").string() +
                            "' '" BOOKBUILD_EXE "' " + args);
  for (const auto& e : fs::directory_iterator(log_dir))
    if (test::read_file(e.path()).find("bookbuild_highlighter.so") != std::string::npos)
      t.highlighter_loaded = true;
  return t;
}

// Every file under the output folders, by path: what a reader gets.
std::map<std::string, std::string> outputs(const fs::path& out) {
  std::map<std::string, std::string> files;
  for (const char* dir : {"site", "latex", "epub"})
    for (const auto& e : fs::recursive_directory_iterator(out / dir))
      if (e.is_regular_file()) files[fs::relative(e.path(), out).string()] = test::read_file(e.path());
  return files;
}

// The highlight cache (<out>/.cache/highlight.bin, builder/highlight/cache.hpp): a run whose code blocks
// were highlighted before does not load the highlighting module and writes the same bytes; a damaged
// cache is ignored without a word and replaced; an edited block is highlighted again.
TEST(Cli, HighlightCacheSparesTheModuleAndChangesNoByte) {
  const fs::path tmp = fs::temp_directory_path() / ("bb-cli-hlcache-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  const fs::path book_dir = tmp / "book", out = tmp / "out", logs = tmp / "ld";
  fs::create_directories(tmp);
  fs::copy(test::fixtures() / "books" / "code", book_dir, fs::copy_options::recursive);
  const std::string args = "--book '" + book_dir.string() + "' -q --out '" + out.string() + "' ";
  // The EPUB first: the site links it once it exists.
  const std::vector<std::string> jobs{"epub", "latex", "site"};

  auto cold = traced(args + "epub", logs);
  ASSERT_EQ(cold.run.exit_code, 0) << cold.run.err;
  EXPECT_TRUE(cold.highlighter_loaded);  // the log does show the module when it is loaded
  ASSERT_TRUE(fs::exists(out / ".cache" / "highlight.bin"));
  for (const char* job : {"latex", "site"}) ASSERT_EQ(test::run_bookbuild(args + job).exit_code, 0) << job;
  const auto first = outputs(out);
  ASSERT_NE(first.at("site/ch01.html").find("<span class=\"hl-keyword\">for</span>"), std::string::npos);

  auto warm_runs_skip_the_module = [&](const std::string& when) {
    for (const auto& job : jobs) {
      auto warm = traced(args + job, logs);
      EXPECT_EQ(warm.run.exit_code, 0) << when << job << warm.run.err;
      EXPECT_EQ(warm.run.err, "") << when << job;
      EXPECT_FALSE(warm.highlighter_loaded) << when << job;
    }
    EXPECT_TRUE(outputs(out) == first) << when;
  };
  warm_runs_skip_the_module("warm: ");

  // Damaged: one byte changed in the middle, then cut short. Ignored, highlighted again, rewritten.
  for (const char* damage : {"flip", "cut"}) {
    const fs::path file = out / ".cache" / "highlight.bin";
    std::string bytes = test::read_file(file);
    if (std::string(damage) == "flip")
      bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
    else
      bytes.resize(bytes.size() / 3);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    for (const auto& job : jobs) {
      auto again = traced(args + job, logs);
      EXPECT_EQ(again.run.exit_code, 0) << damage << job << again.run.err;
      EXPECT_EQ(again.run.err, "") << damage << job;
      if (job == "epub") {
        EXPECT_TRUE(again.highlighter_loaded) << damage;
      }
    }
    warm_runs_skip_the_module(std::string(damage) + ": ");
  }

  // An edited block misses, and only the edit shows in the outputs.
  const fs::path chapter = book_dir / "chapters" / "chapter02.md";
  std::string text = test::read_file(chapter);
  text.replace(text.find("wc -l"), 5, "wc -c");
  std::ofstream(chapter, std::ios::binary | std::ios::trunc) << text;
  auto edited = traced(args + "site", logs);
  EXPECT_EQ(edited.run.exit_code, 0) << edited.run.err;
  EXPECT_TRUE(edited.highlighter_loaded);
  EXPECT_NE(test::read_file(out / "site" / "ch02.html").find("wc -c"), std::string::npos);
  auto after = traced(args + "site", logs);
  EXPECT_FALSE(after.highlighter_loaded);
  fs::remove_all(tmp);
}

// Progress (diag/progress.hpp): none in a log or a pipe, nor with -q; `--progress always` draws
// the status line and wipes it before each line the tool prints; on a real terminal (a pty from
// util-linux `script`) `auto` draws it unless TERM is dumb.
TEST(Cli, ProgressOnlyOnATerminalOrWhenAsked) {
  fs::path out = fs::temp_directory_path() / ("bb-cli-progress-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::string args = book("mini") + " --out '" + out.string() + "' ";
  const std::string wipe = "\r\x1b[K";
  auto plain = test::run_bookbuild(args + "epub");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("epub: "), std::string::npos) << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos) << plain.err;
  EXPECT_EQ(plain.err.find("\x1b["), std::string::npos) << plain.err;
  auto quiet = test::run_bookbuild(args + "-q --progress always epub");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  auto always = test::run_bookbuild(args + "--progress always epub");
  EXPECT_EQ(always.exit_code, 0) << always.err;
  EXPECT_NE(always.err.find(wipe + "[epub zh] chapters 2/2"), std::string::npos) << always.err;
  EXPECT_NE(always.err.find(wipe + "[epub en] compressing"), std::string::npos) << always.err;
  EXPECT_NE(always.err.find(wipe + "epub: "), std::string::npos) << always.err;
  EXPECT_TRUE(always.err.ends_with("KiB)\n")) << always.err;  // the last line is not a status line
  EXPECT_EQ(test::run_bookbuild(args + "--progress sometimes epub").exit_code, 2);

  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "util-linux script (a pseudo-terminal) is absent";
  auto on_pty = [&](const std::string& term) {
    return test::run_command("TERM=" + term + " /usr/bin/script -qec \"'" BOOKBUILD_EXE "' " + args +
                             "epub\" /dev/null </dev/null");
  };
  auto tty = on_pty("xterm");
  EXPECT_EQ(tty.exit_code, 0) << tty.out;
  EXPECT_NE(tty.out.find(wipe + "[epub zh] "), std::string::npos) << tty.out;
  auto dumb = on_pty("dumb");
  EXPECT_EQ(dumb.exit_code, 0) << dumb.out;
  EXPECT_NE(dumb.out.find("epub: "), std::string::npos) << dumb.out;
  EXPECT_EQ(dumb.out.find("\x1b["), std::string::npos) << dumb.out;
  fs::remove_all(out);
}

// The manual page names every command and option of the app, walked here through CLI11 itself, with
// its help text; the executable prints the same page; and groff reads it without a single warning.
TEST(Cli, ManualPageCoversTheWholeCommandLine) {
  cli::Context ctx;
  auto app = cli::make_app(ctx);
  std::ostringstream written;
  cli::write_manpage(*app, written);
  const std::string page = written.str();
  auto roff = [](std::string s) {
    std::string out;
    for (char c : s)
      out += c == '-' ? std::string("\\-") : c == '\\' ? std::string("\\e") : std::string(1, c);
    return out;
  };
  // The part of the page from `heading` to the next heading: where a command's options must be.
  auto section = [&](const std::string& heading) {
    const std::size_t from = page.find(heading);
    if (from == std::string::npos) return std::string();
    const std::size_t next_ss = page.find("\n.SS ", from + 1), next_sh = page.find("\n.SH ", from + 1);
    return page.substr(from, std::min(next_ss, next_sh) + 1 - from);
  };
  std::size_t commands = 0, options = 0;
  std::function<void(const CLI::App&, const std::string&, const std::string&)> walk =
      [&](const CLI::App& a, const std::string& path, const std::string& text) {
        for (const CLI::Option* o : a.get_options()) {
          if (o->get_group().empty()) continue;
          ++options;
          for (const auto& l : o->get_lnames())
            EXPECT_NE(text.find("\\fB\\-\\-" + roff(l) + "\\fR"), std::string::npos) << path << " --" << l;
          for (const auto& sn : o->get_snames())
            EXPECT_NE(text.find("\\fB\\-" + roff(sn) + "\\fR"), std::string::npos) << path << " -" << sn;
          if (o->get_lnames().empty() && o->get_snames().empty()) {
            EXPECT_NE(text.find("\\fI" + roff(o->get_name()) + "\\fR"), std::string::npos)
                << path << " " << o->get_name();
          }
          EXPECT_NE(text.find("\n" + roff(o->get_description())), std::string::npos)
              << path << ": " << o->get_description();
        }
        for (const CLI::App* sub : a.get_subcommands([](const CLI::App*) { return true; })) {
          const std::string sub_path = path + " " + sub->get_name();
          const std::string heading = ".SS \"" + roff(sub_path) + "\"\n";
          if (sub->get_group().empty()) {  // hidden (`manpage`): not in the page
            EXPECT_EQ(page.find(heading), std::string::npos) << sub_path;
            continue;
          }
          ++commands;
          EXPECT_NE(page.find(heading + roff(sub->get_description()) + "\n"), std::string::npos) << sub_path;
          walk(*sub, sub_path, section(heading));
        }
      };
  walk(*app, "bookbuild", section(".SH GLOBAL OPTIONS\n"));
  EXPECT_GE(commands, 8u);  // site epub latex pdf check calc (and its commands) init completion
  EXPECT_GE(options, 20u);
  for (const char* section :
       {"NAME", "SYNOPSIS", "GLOBAL OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"})
    EXPECT_NE(page.find(std::string(".SH ") + section + "\n"), std::string::npos) << section;
  // Every variable the tool reads (std::getenv in builder/) is described; PATH is everybody's.
  for (const char* variable :
       {"TERM", "COLUMNS", "BOOKBUILD_XELATEX", "BOOKBUILD_DATA_DIR", "BOOKBUILD_PDF_MODULE",
        "BOOKBUILD_SVG_MODULE", "BOOKBUILD_XML_MODULE", "BOOKBUILD_HIGHLIGHT_MODULE", "BOOKBUILD_GIT_MODULE",
        "SOURCE_DATE_EPOCH", "BOOKBUILD_TIMINGS", "BOOKBUILD_DEFAULT_MALLOC"})
    EXPECT_NE(section(".SH ENVIRONMENT\n").find("\\fB" + std::string(variable)), std::string::npos)
        << variable;

  auto printed = test::run_bookbuild("manpage");
  EXPECT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(printed.out, page);

  if (!fs::exists("/usr/bin/groff")) GTEST_SKIP() << "groff is not installed (Debian: groff-base)";
  fs::path file = fs::temp_directory_path() / ("bb-manpage-" + std::to_string(::getpid()) + ".1");
  test::write_file(file, page);
  auto shown = test::run_command("/usr/bin/groff -man -Tutf8 -ww -P-cbou '" + file.string() + "'");
  fs::remove(file);
  EXPECT_EQ(shown.exit_code, 0);
  EXPECT_EQ(shown.err, "");  // -ww: every warning
  EXPECT_NE(shown.out.find("EXIT STATUS"), std::string::npos);
}

TEST(Cli, CorpusChecksWithZeroErrors) {
  fs::path corpus = BOOKBUILD_CORPUS;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "corpus not present at " << corpus;
  auto r = test::run_bookbuild("--book '" + corpus.string() + "' check");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find(": error:"), std::string::npos) << r.err;
}

// The search index kept in <out>/.cache/search (site/search_cache.hpp): a rebuild after an edit gives
// the index a fresh build of the edited book gives, and an unchanged rebuild the same bytes again.
TEST(Cli, SearchIndexCacheNeverServesAStaleIndex) {
  fs::path work = fs::temp_directory_path() / ("bb-cli-search-cache-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(test::fixtures() / "books" / "mini", work / "book", fs::copy_options::recursive);
  auto site = [&](const std::string& out) {
    auto r = test::run_bookbuild("--book '" + (work / "book").string() + "' -q --out '" +
                                 (work / out).string() + "' site");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  auto index_of = [&](const std::string& out) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(work / out / "site"))
      if (e.is_regular_file() && e.path().parent_path().filename() == "search")
        files[fs::relative(e.path(), work / out).string()] = test::read_file(e.path());
    return files;
  };
  site("warm");
  EXPECT_TRUE(fs::is_directory(work / "warm" / ".cache" / "search"));
  const auto first = index_of("warm");
  ASSERT_FALSE(first.empty());
  site("warm");
  EXPECT_EQ(index_of("warm"), first) << "unchanged book, same index";

  fs::path chapter = work / "book" / "book-en" / "chapter01.md";
  test::write_file(chapter, test::read_file(chapter) + "\nA zanzibarite sentence added.\n");
  site("warm");
  site("fresh");
  const auto edited = index_of("warm");
  EXPECT_NE(edited, first) << "the edit reached the index";
  EXPECT_EQ(edited, index_of("fresh")) << "the warm rebuild equals a fresh build";
  fs::remove_all(work);
}

}  // namespace
}  // namespace bb

namespace bb {
namespace {

// The parsed language files kept in <out>/.cache/languages.bin (lang::use_cache): reused while the
// files are the ones it was written from, never once a file changed, and a damaged cache is only a
// miss. BOOKBUILD_DATA_DIR points the tool at a copy of its data, which the test then edits.
TEST(Cli, LanguageCacheFollowsTheLanguageFiles) {
  test::TempDir tmp("bb-lang-cache");
  const fs::path data = tmp.path / "data", book = tmp.path / "book", out = tmp.path / "out";
  fs::create_directories(data);
  for (const char* folder : {"languages", "templates", "website"})
    fs::copy(fs::path(BOOKBUILD_SOURCE_DIR) / folder, data / folder, fs::copy_options::recursive);
  // Files changed in the last two seconds are not cached: the copies are made an hour old.
  const auto hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& e : fs::directory_iterator(data / "languages")) fs::last_write_time(e.path(), hour_ago);
  auto run = [&](const std::string& args) {
    return test::run_command("BOOKBUILD_DATA_DIR='" + data.string() + "' '" BOOKBUILD_EXE "' " + args);
  };
  ASSERT_EQ(run("init '" + book.string() + "' --language en").exit_code, 0);
  auto latex = [&] {
    auto r = run("--book '" + book.string() + "' --out '" + out.string() + "' -q latex --edition en");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_file(out / "latex" / "en" / "book.tex");
  };
  const std::string first = latex();
  const fs::path cache = out / ".cache" / "languages.bin";
  ASSERT_TRUE(fs::exists(cache));
  const auto written = fs::last_write_time(cache);
  EXPECT_EQ(latex(), first);
  EXPECT_EQ(fs::last_write_time(cache), written) << "a cache that matched is read, not written again";

  // An edited language file: its words reach the output at once, whether it was just saved or is
  // older than the cache (its identity changed either way).
  const fs::path en = data / "languages" / "en.toml";
  std::string toml = test::read_file(en);
  const std::string label = "figure = \"Figure {}\"";
  ASSERT_NE(toml.find(label), std::string::npos);
  toml.replace(toml.find(label), label.size(), "figure = \"Picture {}\"");
  test::write_file(en, toml);
  const std::string edited = latex();
  EXPECT_NE(edited.find("Picture"), std::string::npos);
  EXPECT_NE(edited, first);
  fs::last_write_time(en, hour_ago + std::chrono::minutes(10));
  EXPECT_EQ(latex(), edited);
  EXPECT_NE(fs::last_write_time(cache), written) << "the cache is written again for the edited file";
  EXPECT_EQ(latex(), edited);

  // A damaged cache (cut short, or one byte changed) is a miss: the same output as without it.
  std::string bytes = test::read_file(cache);
  test::write_file(cache, bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(latex(), edited);
  bytes = test::read_file(cache);
  bytes[bytes.size() - 20] = static_cast<char>(bytes[bytes.size() - 20] ^ 0x40);
  test::write_file(cache, bytes);
  EXPECT_EQ(latex(), edited);
}

}  // namespace
}  // namespace bb
