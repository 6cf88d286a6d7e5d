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

// A case's scratch folder: the book copied, `before/` in the output folder; removed when done.
struct Scratch {
  fs::path dir, book, out;
  long fsize_limit = 0;
  Scratch(const fs::path& suite_case, const std::string& name) {
    dir = fs::temp_directory_path() / ("bb-hostile-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    book = dir / "book";
    out = dir / "out";
    fs::create_directories(dir);
    fs::copy(suite_case / "book", book, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    if (fs::exists(suite_case / "before")) fs::copy(suite_case / "before", out, fs::copy_options::recursive);
    if (fs::exists(suite_case / "fsize-limit"))
      fsize_limit = std::stol(test::read_file(suite_case / "fsize-limit"));
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  Outcome run(const std::string& args) const { return bb::run(args, book, out, dir, fsize_limit); }
  // The diagnostic lines of a run's stderr, with {book} and {out} for those folders.
  [[nodiscard]] std::vector<std::string> shown(const Outcome& r) const {
    return diagnostics(replace_all(replace_all(r.err, out.string(), "{out}"), book.string(), "{book}"));
  }
};

TEST_P(Hostile, FailsCleanly) {
  const fs::path dir = suite() / GetParam();
  if (fs::exists(dir / "SKIP")) GTEST_SKIP() << test::read_file(dir / "SKIP");
  const Scratch scratch(dir, GetParam());
  const fs::path& out = scratch.out;

  Outcome last;
  for (const auto& args : lines_of(test::read_file(dir / "command"))) {
    if (!args.empty()) last = scratch.run(args);
  }

  EXPECT_EQ(last.exit_code, std::stoi(test::read_file(dir / "exit"))) << last.err;
  std::string got = joined(scratch.shown(last));
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
}

// The output command of a case's last line (`--out {out} epub`): everything from the subcommand on is
// replaced by `check`; "" when the line runs no output command.
std::string as_check(const std::string& line) {
  static const std::regex output(R"(^(.*?)\b(site|epub|latex|pdf|build)\b.*$)");
  static const std::regex check(R"(\bcheck\b)");
  std::smatch m;
  if (std::regex_search(line, check)) return "";  // `check epub --file x.epub` is a check already
  return std::regex_match(line, m, output) ? m[1].str() + "check" : "";
}

// `check` refuses whatever an output refuses (issue 46): every case whose output command fails is run
// again as `bookbuild check`, which must fail too, with each of the output's errors at the same place
// in the same words. A case whose refusal is about the output folder, not the book (a full disk, an
// unwritable --out), says so in a file `not-checked`.
class HostileCheck : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileCheck, CheckRefusesAsTheOutputDoes) {
  const fs::path dir = suite() / GetParam();
  if (fs::exists(dir / "SKIP")) GTEST_SKIP() << test::read_file(dir / "SKIP");
  const auto commands = lines_of(test::read_file(dir / "command"));
  const std::string check = commands.empty() ? "" : as_check(commands.back());
  if (check.empty() || test::read_file(dir / "exit") == "0\n") GTEST_SKIP() << "no output refuses this book";
  if (fs::exists(dir / "not-checked")) GTEST_SKIP() << test::read_file(dir / "not-checked");
  const Scratch scratch(dir, GetParam() + "-check");
  for (std::size_t i = 0; i + 1 < commands.size(); ++i)
    if (!commands[i].empty()) scratch.run(commands[i]);
  const Outcome checked = scratch.run(check);
  EXPECT_EQ(checked.exit_code, 1) << "bookbuild " << check << " passed a book `" << commands.back()
                                  << "` refuses:\n"
                                  << checked.err;
  const auto got = scratch.shown(checked);
  for (const auto& line : lines_of(test::read_file(dir / "expected"))) {
    if (line.find(": error: ") == std::string::npos) continue;
    EXPECT_NE(std::find(got.begin(), got.end(), line), got.end())
        << "`" << commands.back() << "` says\n  " << line << "\nbut `" << check << "` does not:\n"
        << checked.err;
  }
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
INSTANTIATE_TEST_SUITE_P(Cases, HostileCheck, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return replace_all(info.param, "-", "_"); });

}  // namespace
}  // namespace bb
