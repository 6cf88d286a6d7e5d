// Chart specs (charts/spec.hpp): an edited spec is read anew, and what its parse said is said again each
// time it is read; the resolver draws a spec once per edition (filters/charts.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

#include "book/book.hpp"
#include "charts/spec.hpp"
#include "resolved_book.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;

std::string title(const std::optional<charts::Spec>& spec) {
  if (!spec) return "(none)";
  auto it = spec->title.by_key.find("");
  return it == spec->title.by_key.end() ? "(no title)" : it->second;
}

TEST(ChartSpec, AnEditedSpecIsReadAnew) {
  test::TempDir dir("bb-chart-spec");
  const fs::path file = dir.path / "kept.chart.toml";
  const std::string text = test::read_file(fs::path(BOOKBUILD_FIXTURES) / "charts/kept.chart.toml");
  test::write_file(file, text);
  Diagnostics diags;
  EXPECT_EQ(title(charts::read_spec(file, diags)), "Bandwidth");
  EXPECT_EQ(title(charts::read_spec(file, diags)), "Bandwidth");
  EXPECT_TRUE(diags.all().empty());

  // Same path, same size, another title: the kept parse is not the answer.
  std::string edited = text;
  edited.replace(edited.find("Bandwidth"), 9, "Bandwidty");
  test::write_file(file, edited);
  EXPECT_EQ(title(charts::read_spec(file, diags)), "Bandwidty");
  EXPECT_TRUE(diags.all().empty());

  // A spec with a problem says it on every read, not only the first.
  test::write_file(file, text + "colour = \"red\"\n");
  for (int read = 0; read < 2; ++read) {
    Diagnostics said;
    EXPECT_FALSE(charts::read_spec(file, said)) << read;
    ASSERT_EQ(said.all().size(), 1u) << read;
    EXPECT_EQ(said.all()[0].severity, Severity::Error);
    EXPECT_NE(said.all()[0].message.find("colour"), std::string::npos) << said.all()[0].message;
  }
  // And the spec as it was is read as it was again.
  test::write_file(file, text);
  EXPECT_EQ(title(charts::read_spec(file, diags)), "Bandwidth");
}

// The resolver draws a spec once per edition for all its chapters: each edition's figures get that
// edition's drawing, and every figure that shows the spec gets it.
TEST(ChartSpec, EachEditionsFiguresGetItsOwnDrawing) {
  test::TempDir dir("bb-chart-editions");
  const fs::path root = dir.path / "book";
  fs::copy(fs::path(BOOKBUILD_FIXTURES) / "charts/book", root, fs::copy_options::recursive);
  Diagnostics diags;
  auto resolved = test::resolved_book(root, diags);
  ASSERT_TRUE(resolved);
  const book::Book& book = *resolved;
  EXPECT_FALSE(diags.has_errors());
  ASSERT_EQ(book.editions.size(), 2u);
  for (const auto& [edition, title, other] :
       {std::tuple{0, "Speed in English", "Скорость"}, std::tuple{1, "Скорость по-русски", "Speed in"}}) {
    ASSERT_EQ(book.editions[edition].chapters.size(), 2u);
    for (const auto& chapter : book.editions[edition].chapters) {
      std::string svg;
      doc::walk(chapter.root, [&](const doc::Node& n) {
        if (const std::string* s = n.attr("chart-svg")) svg = *s;
      });
      EXPECT_NE(svg.find(title), std::string::npos) << chapter.key << "\n" << svg;
      EXPECT_EQ(svg.find(other), std::string::npos) << chapter.key;
    }
  }
}

}  // namespace
}  // namespace bb
