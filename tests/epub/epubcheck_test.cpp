// epubcheck's JSON report read back as located diagnostics (check/epubcheck.hpp): fixtures are
// epubcheck's real output (fixtures/epubcheck/NAME.out) and the diagnostics expected from it
// (NAME.expected), so that `check epub` fails with every message epubcheck gave.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "check/epubcheck.hpp"

namespace bb::check {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string reported(std::string_view out, int exit_code) {
  Diagnostics diags;
  report_epubcheck_json(out, exit_code, "x.epub", diags);
  std::string text;
  for (const auto& d : diags.all()) text += format_diagnostic(d) + "\n";
  return text;
}

TEST(Epubcheck, MessagesBecomeLocatedDiagnostics) {
  fs::path dir = fs::path(BOOKBUILD_EPUB_FIXTURES) / "epubcheck";
  EXPECT_EQ(reported(read(dir / "no-spine.out"), 1), read(dir / "no-spine.expected"));
}

TEST(Epubcheck, AFailureWithoutAMessageIsAnError) {
  EXPECT_EQ(reported("{ \"messages\" : [ ] }", 1), "x.epub: error: epubcheck failed (exit code 1)\n");
  EXPECT_EQ(reported("{ \"messages\" : [ ] }", 0), "");
  EXPECT_EQ(reported("Exception in thread main", 2),
            "x.epub: error: epubcheck wrote no report that bookbuild can read\n");
}

TEST(Epubcheck, WarningsStayWarnings) {
  auto text = reported(R"({"messages":[{"ID":"OPF-085","severity":"WARNING","message":"m",
    "locations":[{"path":"EPUB/a.xhtml","line":3,"column":4}]},{"ID":"X","severity":"USAGE","message":"u"}]})",
                       0);
  EXPECT_EQ(text, "x.epub/EPUB/a.xhtml:3:4: warning: epubcheck OPF-085: m\n");
}

}  // namespace
}  // namespace bb::check
