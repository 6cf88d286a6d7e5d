// `bookbuild init [DIR] [--language L[,L2…]]`: a new book from templates/init/ (common/, then L/) that
// builds and passes `check --strict` as it is: the scenario's results are computed once the files are
// written. Each further language is a translation: its scaffold's chapters in book-L2/, its edition in
// book.toml.
// Writes nothing when any file it would write already exists.
// `bookbuild init --workflow [--force]`: only the book workflow, into an existing book (one with a
// book.toml or the real book's layout), filled from its editions, download names and [publish].
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "book/config.hpp"
#include "calc/error.hpp"
#include "calc/reproduce.hpp"
#include "cli/commands.hpp"
#include "commit.hpp"  // generated: BOOKBUILD_COMMIT_FULL
#include "output/staging.hpp"
#include "publish/workflow.hpp"
#include "text/suggest.hpp"
#include "writers/template.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

struct InitCommand {
  std::string dir;
  std::string language = "en";  // one language, or a list: "en,zh" (the first is the source)
  bool workflow = false;        // only .github/workflows/book.yml, into an existing book
  bool force = false;           // --workflow: replace the one there
};

const fs::path kWorkflow = fs::path(".github") / "workflows" / "book.yml";

fs::path scaffolds() {
  return writers::data_dir() / "templates" / "init";
}

std::vector<std::string> languages() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(scaffolds(), ec))
    if (e.is_directory() && e.path().filename() != "common") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Every file of the scaffold, by its path in the new book; the language's files replace common ones.
std::map<fs::path, fs::path> scaffold_files(const std::string& language) {
  std::map<fs::path, fs::path> files;
  for (const char* part : {"common", language.c_str()}) {
    fs::path base = scaffolds() / part;
    for (const auto& e : fs::recursive_directory_iterator(base))
      if (e.is_regular_file()) files[e.path().lexically_relative(base)] = e.path();
  }
  return files;
}

// The book workflow of the book at `root`, from templates/workflow/book.yml: written (replacing one
// only when `force`), or every problem printed. Returns the exit code.
int write_workflow(const fs::path& root, bool force, bool quiet) {
  Diagnostics diags;
  const fs::path target = root / kWorkflow;
  const bool exists = !force && fs::exists(target);
  if (exists) diags.error({target, 0, 0}, "already exists; `init --workflow --force` replaces it");
  auto cfg = book::load_config(root, diags);
  std::optional<publish::Settings> settings;
  if (cfg) settings = publish::read_settings(*cfg, BOOKBUILD_COMMIT_FULL, diags);
  if (diags.has_errors() || !settings) {
    diags.print(std::cerr, root);
    diags.print_summary(std::cerr);
    return exists ? 2 : 1;
  }
  const fs::path tmpl = writers::data_dir() / "templates" / "workflow" / "book.yml";
  std::ifstream in(tmpl, std::ios::binary);
  if (!in) throw FatalError(tmpl.string() + ": error: cannot read the workflow template", 2);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string workflow =
      publish::book_workflow(*cfg, *settings, text.str(), tmpl.string(), BOOKBUILD_VERSION);
  diags.print(std::cerr, root);  // warnings
  fs::create_directories(target.parent_path());
  output::write_file_atomic(target, workflow);
  if (!quiet) std::cout << "Wrote " << target.string() << '\n';
  return 0;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A translation of the book in `language`: its scaffold's manuscripts (with the common figures) in
// `book-<language>/`, and its `[[edition]]` table, moved to that folder and site path, for book.toml.
std::string add_translation(const std::string& language, std::map<fs::path, fs::path>& files) {
  const fs::path folder = "book-" + language;
  for (const auto& [rel, src] : scaffold_files(language))
    if (*rel.begin() == "manuscripts") files[folder / rel.lexically_relative("manuscripts")] = src;
  std::string toml = read_text(scaffolds() / language / "book.toml");
  std::string edition = toml.substr(std::min(toml.find("[[edition]]"), toml.size()));
  auto set = [&](const std::string& line, const std::string& to) {
    if (auto at = edition.find(line); at != std::string::npos) edition.replace(at, line.size(), to);
  };
  set("folder = \"manuscripts\"", "folder = \"" + folder.string() + "\"");
  set("site-path = \"\"", "site-path = \"" + language + "/\"");
  return "\n" + edition;
}

// The languages of `--language en,zh`, each one a scaffold, none twice; empty after an error.
std::vector<std::string> chosen_languages(const std::string& option) {
  const auto langs = languages();
  std::vector<std::string> chosen;
  for (std::size_t at = 0; at <= option.size();) {
    const std::size_t comma = std::min(option.find(',', at), option.size());
    const std::string l = option.substr(at, comma - at);
    at = comma + 1;
    if (std::find(langs.begin(), langs.end(), l) == langs.end()) {
      std::string list;
      for (const auto& x : langs) list += (list.empty() ? "" : ", ") + x;
      std::cerr << "bookbuild init: error: no scaffold for language `" << l << "`"
                << text::did_you_mean(l, langs) << " (available: " << list
                << "; several: --language en,zh)\n";
      return {};
    }
    if (std::find(chosen.begin(), chosen.end(), l) != chosen.end()) {
      std::cerr << "bookbuild init: error: language `" << l << "` is named twice\n";
      return {};
    }
    chosen.push_back(l);
  }
  return chosen;
}

int run(const InitCommand& opt, const Context& ctx) {
  if (opt.workflow) {
    const fs::path root = opt.dir.empty() ? ctx.global.book_dir : fs::path(opt.dir);
    return write_workflow(fs::absolute(root).lexically_normal(), opt.force, ctx.global.quiet);
  }
  const auto chosen = chosen_languages(opt.language);
  if (chosen.empty()) return 2;
  fs::path target = fs::absolute(opt.dir.empty() ? fs::current_path() : fs::path(opt.dir)).lexically_normal();
  auto files = scaffold_files(chosen.front());
  std::string book_toml = read_text(files.at("book.toml"));
  for (std::size_t i = 1; i < chosen.size(); ++i) book_toml += add_translation(chosen[i], files);
  std::vector<fs::path> existing;
  for (const auto& [rel, src] : files)
    if (fs::exists(target / rel)) existing.push_back(target / rel);
  for (const fs::path& rel : {fs::path("calculations") / "results", kWorkflow})
    if (fs::exists(target / rel)) existing.push_back(target / rel);
  if (!existing.empty()) {
    for (const auto& p : existing)
      std::cerr << p.string() << ": error: already exists; `init` writes nothing\n";
    return 2;
  }
  for (const auto& [rel, src] : files) {
    fs::create_directories((target / rel).parent_path());
    if (rel == "book.toml")
      std::ofstream(target / rel, std::ios::binary) << book_toml;
    else
      fs::copy_file(src, target / rel);
  }
  // The scenario's results and manifest, computed by this build's calc library (as `bookbuild calc
  // reproduce --write` does), so that `check` finds them current.
  try {
    calc::reproduce(calc::Data(target / "calculations"), true);
  } catch (const calc::Error& e) {
    std::cerr << (target / "calculations").string() << ": error: " << e.what() << "\n";
    return 1;
  }
  // The workflow last, from the book just written (as `init --workflow` does in an existing book).
  if (int code = write_workflow(target, false, true); code != 0) return code;
  if (!ctx.global.quiet) {
    std::cout << "Created a new book in " << target.string() << " (" << files.size() << " files). Next:\n"
              << "  cd " << target.string() << "\n"
              << "  bookbuild site --serve     # the website, rebuilt as you edit\n"
              << "  bookbuild check            # links, references and computed numbers\n";
  }
  return 0;
}

}  // namespace

void define_init_command(CLI::App* sub, Context& ctx) {
  auto opt = std::make_shared<InitCommand>();
  sub->add_option("dir", opt->dir,
                  "Folder of the new book; created if missing (default: the current folder; with --workflow: "
                  "the book)")
      ->type_name("DIR");
  sub->add_option(
         "--language", opt->language,
         "Language of the new book, or languages, the first the source: " +
             [] {
               std::string list;
               for (const auto& l : languages()) list += (list.empty() ? "" : ", ") + l;
               return list;
             }() +
             " (default: en; two editions: en,zh)")
      ->type_name("LANG");
  sub->add_flag("--workflow", opt->workflow,
                "Write only the book workflow (.github/workflows/book.yml) into an existing book (DIR, or "
                "--book), filled from its editions, download names and [publish]");
  sub->add_flag("--force", opt->force, "--workflow: replace the workflow the book has");
  sub->callback([&ctx, opt] { ctx.exit_code = run(*opt, ctx); });
}

}  // namespace bb::cli
