// `bookbuild init [DIR] [--language L]`: a new book from templates/init/ (common/, then L/) that
// builds and passes `check` as it is: the scenario's results are computed once the files are written.
// Writes nothing when any file it would write already exists.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "calc/error.hpp"
#include "calc/reproduce.hpp"
#include "cli/commands.hpp"
#include "writers/template.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

namespace {

struct InitCommand {
  std::string dir;
  std::string language = "en";
};

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

// The book workflow (.github/workflows/book.yml) installs the bookbuild that wrote it: its version
// fills in `@BOOKBUILD_VERSION@`, so that a book's CI builds with the tool it was started with.
void write_versioned(const fs::path& from, const fs::path& to) {
  std::ifstream in(from, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const std::string mark = "@BOOKBUILD_VERSION@";
  for (std::size_t at; (at = text.find(mark)) != std::string::npos;)
    text.replace(at, mark.size(), BOOKBUILD_VERSION);
  std::ofstream(to, std::ios::binary) << text;
}

int run(const InitCommand& opt, const Context& ctx) {
  auto langs = languages();
  if (std::find(langs.begin(), langs.end(), opt.language) == langs.end()) {
    std::string list;
    for (const auto& l : langs) list += (list.empty() ? "" : ", ") + l;
    std::cerr << "bookbuild init: error: no scaffold for language `" << opt.language
              << "` (available: " << list << ")\n";
    return 2;
  }
  fs::path target = fs::absolute(opt.dir.empty() ? fs::current_path() : fs::path(opt.dir)).lexically_normal();
  auto files = scaffold_files(opt.language);
  std::vector<fs::path> existing;
  for (const auto& [rel, src] : files)
    if (fs::exists(target / rel)) existing.push_back(target / rel);
  if (fs::exists(target / "calculations" / "results"))
    existing.push_back(target / "calculations" / "results");
  if (!existing.empty()) {
    for (const auto& p : existing)
      std::cerr << p.string() << ": error: already exists; `init` writes nothing\n";
    return 2;
  }
  for (const auto& [rel, src] : files) {
    fs::create_directories((target / rel).parent_path());
    if (rel.extension() == ".yml")
      write_versioned(src, target / rel);
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
  sub->add_option("dir", opt->dir, "Folder of the new book; created if missing (default: the current folder)")
      ->type_name("DIR");
  sub->add_option(
         "--language", opt->language,
         "Language of the new book: " +
             [] {
               std::string list;
               for (const auto& l : languages()) list += (list.empty() ? "" : ", ") + l;
               return list;
             }() +
             " (default: en)")
      ->type_name("LANG");
  sub->callback([&ctx, opt] { ctx.exit_code = run(*opt, ctx); });
}

}  // namespace bb::cli
