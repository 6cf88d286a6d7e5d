// The XeLaTeX runner.
#include "typeset/xelatex.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "diag/progress.hpp"
#include "typeset/book_tex.hpp"
#include "typeset/log_report.hpp"
#include "typeset/process.hpp"

namespace bb::typeset {

namespace fs = std::filesystem;

fs::path xelatex_program() {
  if (const char* env = std::getenv("BOOKBUILD_XELATEX"); env && *env) {
    if (auto p = find_program(env)) return *p;
    return {};
  }
  if (auto p = find_program("xelatex")) return *p;
  return {};
}

void report_tex_errors(const TexLog& log, const std::vector<writers::SourceMark>& marks, const fs::path& tex,
                       Diagnostics& diags) {
  for (const auto& e : log.errors) {
    bool in_book = e.file.empty() || fs::path(e.file).filename() == tex.filename();
    SourceLoc loc;
    if (in_book && e.line > 0) loc = writers::map_line(marks, e.line);
    std::string where = tex.string() + ":" + std::to_string(e.line);
    if (!in_book) where = e.file + ":" + std::to_string(e.line);
    std::string message = "LaTeX error: " + e.message + " (at " + where + ")";
    if (!e.context.empty()) message += ": " + e.context;
    if (loc.path.empty()) loc = {tex, in_book ? e.line : 0, 0};
    diags.error(loc, message);
  }
}

fs::path require_xelatex() {
  fs::path xelatex = xelatex_program();
  if (xelatex.empty())
    throw FatalError(
        "xelatex not found: install TeX Live's XeLaTeX (Debian: scripts/install-deps.sh --test, or "
        "apt-get install texlive-xetex texlive-lang-chinese texlive-lang-cyrillic fonts-noto-cjk "
        "fonts-noto-core), "
        "or set BOOKBUILD_XELATEX",
        2);
  return xelatex;
}

namespace {

// TeX's files that one pass writes and the next reads: labels and pages, the contents, the outlines.
std::string carried_over(const fs::path& dir) {
  std::string all;
  for (const char* name : {"book.aux", "book.toc", "book.out"}) {
    std::ifstream in(dir / name, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    all += std::to_string(ss.str().size()) + ":" + ss.str();
  }
  return all;
}

}  // namespace

TypesetResult typeset(const TypesetOptions& options, Diagnostics& diags) {
  TypesetResult result;
  fs::path xelatex = require_xelatex();
  const fs::path tex = options.dir / kTexName;
  const fs::path log_path = options.dir / "book.log";
  ProcessOptions po;
  po.cwd = options.dir;
  po.timeout = std::chrono::seconds(1200);
  // Unwrapped log lines, so that messages and file names can be read whole.
  po.env = {{"max_print_line", "100000"}, {"error_line", "254"}, {"half_error_line", "238"}};
  for (int pass = 1; pass <= options.max_passes; ++pass) {
    const std::string before = carried_over(options.dir);
    auto start = std::chrono::steady_clock::now();
    progress().status("pdf " + options.label,
                      "xelatex pass " + std::to_string(pass) + "/" + std::to_string(options.max_passes));
    auto r = run_process({xelatex.string(), "-interaction=nonstopmode", "-halt-on-error", "-file-line-error",
                          "-no-shell-escape", kTexName},
                         po);
    result.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ifstream in(log_path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    result.log = parse_tex_log(ss.str());
    result.passes = pass;
    if (r.timed_out) {
      diags.error({tex, 0, 0}, "xelatex did not finish in " + std::to_string(po.timeout.count()) + " s");
      return result;
    }
    if (r.exit_code != 0 || !result.log.errors.empty()) {
      if (result.log.errors.empty())
        diags.error({tex, 0, 0}, "xelatex failed (exit code " + std::to_string(r.exit_code) + "); see " +
                                     log_path.string());
      report_tex_errors(result.log, options.marks, tex, diags);
      return result;
    }
    // latexmk's rule: another pass only while the .aux, .toc or .out a pass read differ from those it
    // wrote. Started from the last build's files (latex/build.cpp), an edit that moves no label,
    // heading or page break settles in one pass.
    if (carried_over(options.dir) == before) break;
  }
  // A reference to a missing label prints "??" in the PDF: an error, and no PDF. Lines into the
  // margin are warnings here; `check pdf` makes them errors.
  const std::size_t errors = diags.error_count();
  report_layout_problems(result.log, options.marks, tex, Severity::Warning, diags);
  if (diags.error_count() > errors) return result;
  result.ok = true;
  result.pdf = options.dir / "book.pdf";
  return result;
}

}  // namespace bb::typeset
