// The hostile-input suite: every folder under tests/hostile/ is one bad input run end to end through
// the bookbuild executable, with its expected diagnostics, exit code and output folder (README.md).
#include <algorithm>
#include <regex>
#include <vector>

#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path suite() {
  return fs::path(BOOKBUILD_SOURCE_DIR) / "tests" / "hostile";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
    s.replace(p, from.size(), to);
  return s;
}

// The diagnostic lines of a run (`path:line:col: error: …`, `bookbuild: error: …`), without the
// quoted source lines, carets and the summary.
std::vector<std::string> diagnostics(const std::string& err) {
  static const std::regex diagnostic(R"(^\S.*: (error|warning|note): .*)");
  std::vector<std::string> out;
  for (const auto& line : lines_of(err))
    if (std::regex_match(line, diagnostic)) out.push_back(line);
  return out;
}

// Every file and folder under `dir`, relative, folders ending in `/`, sorted; the figure cache
// (`.cache/`) is the one thing a failed build may leave.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    std::string rel = fs::relative(it->path(), dir).generic_string();
    if (rel == ".cache") {
      it.disable_recursion_pending();
      continue;
    }
    out.push_back(rel + (it->is_directory() && !it->is_symlink() ? "/" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// Every SVG document an output folder holds, by where it is: each `.svg` file (the figure cache too,
// which LaTeX converts to PDF from), each `.svg` entry of an EPUB, and each `<svg>…</svg>` written
// inline in an HTML or XHTML page (of the site, or of an EPUB).
void add_inline_svgs(const std::string& where, const std::string& page,
                     std::vector<std::pair<std::string, std::string>>& out) {
  for (std::size_t at = 0; (at = page.find("<svg", at)) != std::string::npos;) {
    std::size_t end = page.find("</svg>", at);
    end = end == std::string::npos ? page.size() : end + 6;
    out.emplace_back(where + " (inline)", page.substr(at, end - at));
    at = end;
  }
}

std::vector<std::pair<std::string, std::string>> shipped_svgs(const fs::path& out) {
  std::vector<std::pair<std::string, std::string>> svgs;
  if (!fs::exists(out)) return svgs;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), out).generic_string(), ext = e.path().extension().string();
    if (ext == ".svg") svgs.emplace_back(rel, test::read_file(e.path()));
    if (ext == ".html" || ext == ".xhtml") add_inline_svgs(rel, test::read_file(e.path()), svgs);
    if (ext != ".epub") continue;
    const std::string zip = "'" + e.path().string() + "'";
    for (const auto& entry : lines_of(test::run_command("unzip -Z1 " + zip).out)) {
      if (!entry.ends_with(".svg") && !entry.ends_with(".xhtml")) continue;
      const std::string bytes = test::run_command("unzip -p " + zip + " '" + entry + "'").out;
      if (entry.ends_with(".svg"))
        svgs.emplace_back(rel + ":" + entry, bytes);
      else
        add_inline_svgs(rel + ":" + entry, bytes, svgs);
    }
  }
  return svgs;
}

// What no shipped SVG may hold (docs/security.md, "SVG figures"): code (a script, an event handler, a
// `javascript:` address, a foreignObject or XHTML content), a style sheet from elsewhere, or a
// reference out of the figure (an address that is neither `#fragment` nor an embedded PNG/JPEG/GIF).
std::vector<std::string> svg_hazards(std::string svg) {
  std::transform(svg.begin(), svg.end(), svg.begin(), [](unsigned char c) { return std::tolower(c); });
  std::vector<std::string> found;
  for (const char* word : {"<script", "<handler", "<listener", "<foreignobject", "<iframe",
                           "javascript:", "xml-stylesheet", "@import", "http://www.w3.org/1999/xhtml"})
    if (svg.find(word) != std::string::npos) found.push_back(std::string("holds `") + word + "`");
  static const std::regex handler(R"re(<[^>]*\son[a-z]+\s*=)re"),
      address(R"re((?:href|src)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^)"']*))re"),
      own(R"(^(#.*|data:image/(png|jpeg|gif)[;,].*)$)");
  if (std::regex_search(svg, handler)) found.push_back("holds an event handler (on…=)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), address); it != std::sregex_iterator(); ++it) {
    const std::string target = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    if (!std::regex_match(target, own))
      found.push_back("refers outside itself: `" + target.substr(0, 80) + "`");
  }
  return found;
}

struct Outcome {
  int exit_code = -1;
  std::string err;
};

// Runs one command line with `{book}` and `{out}` filled in, from inside the book, under an optional
// file-size limit (a full disk: writes past it fail with EFBIG, SIGXFSZ being ignored).
Outcome run(const std::string& args, const fs::path& book, const fs::path& out, const fs::path& scratch,
            long fsize_limit) {
  std::string line = replace_all(replace_all(args, "{book}", book.string()), "{out}", out.string());
  std::string cmd = "cd '" + book.string() + "' && ";
  if (fsize_limit > 0) cmd += "trap '' XFSZ; ulimit -f " + std::to_string((fsize_limit + 511) / 512) + "; ";
  cmd += "'" BOOKBUILD_EXE "' " + line + " >/dev/null 2>'" + (scratch / "err").string() + "'";
  int status = std::system(cmd.c_str());  // a shell of its own: the limit ends with it
  Outcome r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = test::read_file(scratch / "err");
  return r;
}

class Hostile : public ::testing::TestWithParam<std::string> {};

TEST_P(Hostile, FailsCleanly) {
  const fs::path dir = suite() / GetParam();
  if (fs::exists(dir / "SKIP")) GTEST_SKIP() << test::read_file(dir / "SKIP");
  const fs::path scratch =
      fs::temp_directory_path() / ("bb-hostile-" + std::to_string(::getpid()) + "-" + GetParam());
  fs::remove_all(scratch);
  const fs::path book = scratch / "book";
  const fs::path out = scratch / "out";
  fs::create_directories(scratch);
  fs::copy(dir / "book", book, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  if (fs::exists(dir / "before")) fs::copy(dir / "before", out, fs::copy_options::recursive);
  long fsize_limit = fs::exists(dir / "fsize-limit") ? std::stol(test::read_file(dir / "fsize-limit")) : 0;

  Outcome last;
  for (const auto& args : lines_of(test::read_file(dir / "command"))) {
    if (!args.empty()) last = run(args, book, out, scratch, fsize_limit);
  }

  EXPECT_EQ(last.exit_code, std::stoi(test::read_file(dir / "exit"))) << last.err;
  std::string got =
      joined(diagnostics(replace_all(replace_all(last.err, out.string(), "{out}"), book.string(), "{book}")));
  const char* update = std::getenv("BOOKBUILD_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") test::write_file(dir / "expected", got);
  EXPECT_EQ(test::read_file(dir / "expected"), got) << last.err;
  if (fs::exists(dir / "output")) {
    EXPECT_EQ(test::read_file(dir / "output"), joined(listing(out)));
  }
  if (fs::exists(dir / "svg-checked")) {
    const auto svgs = shipped_svgs(out);
    EXPECT_GE(svgs.size(), std::stoul(test::read_file(dir / "svg-checked"))) << "SVG documents in the output";
    for (const auto& [where, bytes] : svgs)
      for (const auto& hazard : svg_hazards(bytes)) ADD_FAILURE() << where << " " << hazard;
  }
  if (fs::exists(dir / "output-absent")) {
    for (const auto& gone : lines_of(test::read_file(dir / "output-absent")))
      EXPECT_FALSE(fs::exists(out / gone)) << gone << " is still in the output folder";
  }
  fs::remove_all(scratch);
}

std::vector<std::string> cases() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(suite()))
    if (e.is_directory()) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Cases, Hostile, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return replace_all(info.param, "-", "_"); });

}  // namespace
}  // namespace bb
